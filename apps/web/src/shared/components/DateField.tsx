import { DateInput, type DateInputProps } from '@mantine/dates';
import '@mantine/dates/styles.css';
import { IconCalendar } from '@tabler/icons-react';
import { DATE_DISPLAY_FORMAT } from '@tourdesk/contracts';
import { en } from '@tourdesk/contracts/i18n/catalogs/backoffice/date-field/en';
import { useCommonT } from '../i18n/common';
import { texts, useLanguage } from '../i18n/texts';
import { parseTypedDate } from '../lib/typed-date';

/** The field's hint of what to type, in the user's language ("TT.MM.JJJJ" in German): its own tiny domain, not the first load's. */
const useDateFieldT = texts('date-field', en);

type Props = Omit<DateInputProps, 'value' | 'defaultValue' | 'onChange' | 'valueFormat' | 'dateParser' | 'minDate' | 'maxDate'> & {
  /** The date as the API and the URL hold it (YYYY-MM-DD); empty or null when there is none. */
  value: string | null | undefined;
  /** The new date as YYYY-MM-DD, or '' when the field was cleared. */
  onChange: (value: string) => void;
  min?: string;
  max?: string;
};

/**
 * Every date field of the back office: shown in the spec's display format (29. March 2026),
 * chosen on a calendar or typed (2026-03-29, 29. March 2026 or 29.03.2026, see parseTypedDate),
 * and handed to the page as YYYY-MM-DD, the format of the API and of the URL's filters. A field
 * that is not required can be cleared. In the user's language: a German user reads "29. März 2026"
 * on a German calendar, and is hinted to type TT.MM.JJJJ.
 */
export function DateField({ value, onChange, min, max, clearable, required, onKeyUp, ...rest }: Props) {
  const t = useDateFieldT();
  const common = useCommonT();
  const language = useLanguage();
  const name = typeof rest.label === 'string' ? rest.label : rest['aria-label'];
  return (
    <DateInput
      value={value || null}
      onChange={(next) => onChange(next ?? '')}
      valueFormat={DATE_DISPLAY_FORMAT}
      locale={language}
      dateParser={(text) => parseTypedDate(text, language === 'de' ? 'de' : 'en')}
      minDate={min || undefined}
      maxDate={max || undefined}
      clearable={clearable ?? !required}
      clearButtonProps={{ 'aria-label': name ? common('date.clearNamed', { name }) : common('date.clear') }}
      required={required}
      leftSection={<IconCalendar size={16} aria-hidden />}
      placeholder={t('placeholder')}
      popoverProps={{ withinPortal: true }}
      onKeyUp={(event) => {
        onKeyUp?.(event);
        // Enter takes the typed date: the calendar closes and the date is shown as it reads. On the
        // key's release, so that in a form the key press has submitted it first.
        if (event.key === 'Enter') event.currentTarget.blur();
      }}
      {...rest}
    />
  );
}
