import { useAppSelector } from '../../shared/hooks/store';
import { AccountButton } from './AccountButton';
import { useOnDemand } from './on-demand';

/** The account menu (profile, sign out); its menu code loads when it is first pressed (`useOnDemand`). */
export function UserMenu() {
  const signedIn = useAppSelector((s) => Boolean(s.auth.user));
  const { triggerProps, render } = useOnDemand(() => import('./UserMenuPopup'));
  if (!signedIn) return null;
  return render(<AccountButton {...triggerProps} />, {});
}
