import type { TPublicConfig } from '@tourdesk/contracts';
import { createContext, useContext, type ReactNode } from 'react';

export interface HostState {
  /** The organisation's subdomain, or null on the bare host. */
  subdomain: string | null;
  config: TPublicConfig;
}

const HostContext = createContext<HostState | null>(null);

export function HostProvider({ value, children }: { value: HostState; children: ReactNode }) {
  return <HostContext.Provider value={value}>{children}</HostContext.Provider>;
}

export function useHost(): HostState {
  const host = useContext(HostContext);
  if (!host) throw new Error('useHost() outside HostProvider');
  return host;
}
