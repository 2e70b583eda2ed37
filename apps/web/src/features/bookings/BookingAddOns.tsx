import { Stack, Text } from '@mantine/core';
import { displayAnswer, questionLabel } from './booking-logic';
import { answerLines, extraLines, type BookingCatalog } from './use-booking-catalog';
import { useBookingsT } from './texts';

/** A booking's extras (name × quantity) and its answers (question: answer). */
export function BookingAddOns({ extras, answers, catalog, compact = false }: { extras: Record<string, number>; answers: Record<string, string>; catalog: BookingCatalog; compact?: boolean }) {
  const tr = useBookingsT();
  const extraList = extraLines(extras, catalog);
  const answerList = answerLines(answers, catalog);
  if (compact) {
    if (extraList.length === 0 && answerList.length === 0) return null;
    return (
      <Stack gap={2}>
        {extraList.length > 0 && (
          <Text size="xs" data-testid="booking-extras">
            {extraList.map((e) => `${e.name} × ${e.quantity}`).join(', ')}
          </Text>
        )}
        {answerList.map((a) => (
          <Text key={a.id} size="xs" c="dimmed" data-testid="booking-answer">
            {questionLabel(a.question?.question ?? tr('addons.answer'))}{' '}
            <Text span inherit c="var(--mantine-color-text)">
              {displayAnswer(a.question, a.answer)}
            </Text>
          </Text>
        ))}
      </Stack>
    );
  }
  return (
    <Stack gap="md">
      <div>
        <Text fw={600} size="sm" mb={4}>
          {tr('addons.extras')}
        </Text>
        {extraList.length === 0 ? (
          <Text size="sm" c="dimmed">
            {tr('addons.noExtras')}
          </Text>
        ) : (
          <Stack gap={2} data-testid="booking-extras">
            {extraList.map((e) => (
              <Text key={e.id} size="sm">
                {e.name} × {e.quantity}
              </Text>
            ))}
          </Stack>
        )}
      </div>
      <div>
        <Text fw={600} size="sm" mb={4}>
          {tr('addons.answers')}
        </Text>
        {answerList.length === 0 ? (
          <Text size="sm" c="dimmed">
            {tr('addons.noAnswers')}
          </Text>
        ) : (
          <Stack gap={6}>
            {answerList.map((a) => (
              <Text key={a.id} size="sm" data-testid="booking-answer" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                <Text span inherit c="dimmed">
                  {questionLabel(a.question?.question ?? tr('addons.answer'))}
                </Text>{' '}
                {displayAnswer(a.question, a.answer)}
              </Text>
            ))}
          </Stack>
        )}
      </div>
    </Stack>
  );
}
