import { useLocation } from 'react-router';
import { ErrorPanel } from '../../shared/components/ErrorPanel';

export default function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <ErrorPanel
      logo
      message="Page not found"
      formalMessage={`There is no page at ${pathname}.`}
      actionPath="/dashboard"
      actionLabel="Go to dashboard"
    />
  );
}
