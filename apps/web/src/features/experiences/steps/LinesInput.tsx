import { Textarea } from '@mantine/core';
import { useOfferEditorT } from '../editor-texts';

/** A list of short texts edited as one per line (highlights, inclusions, …). */
export function LinesInput({
  label,
  description,
  placeholder,
  value,
  onChange,
  error,
}: {
  label: string;
  description?: string;
  placeholder?: string;
  value: string[];
  onChange: (lines: string[]) => void;
  error?: string;
}) {
  const t = useOfferEditorT();
  return (
    <Textarea
      label={label}
      description={description ?? t('lines.hint')}
      placeholder={placeholder}
      autosize
      minRows={3}
      value={value.join('\n')}
      onChange={(e) => onChange(e.currentTarget.value.split('\n').map((l) => l.replace(/^\s+/, '')).filter((l, i, all) => l !== '' || i === all.length - 1))}
      onBlur={() => onChange(value.map((l) => l.trim()).filter(Boolean))}
      error={error}
    />
  );
}
