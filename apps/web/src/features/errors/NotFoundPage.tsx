import { useLocation } from 'react-router';
import { ErrorPanel } from '../../shared/components/ErrorPanel';
import { useCommonT } from '../../shared/i18n/common';

export default function NotFoundPage() {
  const t = useCommonT();
  const { pathname } = useLocation();
  return (
    <ErrorPanel
      logo
      message={t('notFound.title')}
      formalMessage={t('notFound.detail', { path: pathname })}
      actionPath="/dashboard"
      actionLabel={t('notFound.action')}
    />
  );
}
