import { Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { toMajorText, toMinorUnits } from '../../shared/lib/money';
import { useOfferSettingsT } from './settings-texts';

/** A price typed in major units (49.90), saved in minor units when the field is left. */
export function MoneyField({ label, currency, minor, onCommit }: { label: string; currency: string; minor: number | null; onCommit: (minor: number | null) => Promise<boolean> }) {
  const t = useOfferSettingsT();
  const shown = minor === null ? '' : toMajorText(minor, currency);
  const [text, setText] = useState(shown);
  const [error, setError] = useState<string>();
  const [last, setLast] = useState(shown);
  if (shown !== last) {
    setLast(shown);
    setText(shown);
  }
  return (
    <TextInput
      aria-label={label}
      leftSection={<Text size="xs">{currency}</Text>}
      leftSectionWidth={44}
      value={text}
      inputMode="decimal"
      error={error}
      onChange={(e) => setText(e.currentTarget.value)}
      onBlur={async () => {
        if (text === shown) return;
        const value = text.trim() === '' ? null : toMinorUnits(text, currency);
        if (text.trim() !== '' && value === null) return setError(t('money.invalid'));
        setError(undefined);
        if (!(await onCommit(value))) setText(shown);
      }}
    />
  );
}

