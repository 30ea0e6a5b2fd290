//! The signed-in operator, given by the console's frame to every page inside it, so pages
//! can decide what to offer (admins see orders and the audit log; photographers their
//! events); the admins-only guard; and the one way out when the session has ended.

import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, type ReactNode } from 'react';
import { ApiFailure } from '@/api/client';
import { ErrorAlert } from '@/components/ErrorAlert';
import { adminKeys } from './api';
import { isAdmin } from './session';
import type { Me } from './types';

const OperatorContext = createContext<Me | null>(null);

export function OperatorProvider({ me, children }: { me: Me; children: ReactNode }) {
  return <OperatorContext.Provider value={me}>{children}</OperatorContext.Provider>;
}

/** The signed-in operator; only inside `AdminLayout` (which signs the visitor in first). */
export function useOperator(): Me {
  const me = useContext(OperatorContext);
  if (!me) throw new Error('useOperator() is only available inside AdminLayout');
  return me;
}

export function useIsAdmin(): boolean {
  return isAdmin(useOperator());
}

const forbidden = new ApiFailure('forbidden', 403, 'admins only');

/** Pages only admins may open: a photographer reads the forbidden text instead, and the
 * page's calls are never made. */
export function AdminOnly({ children }: { children: ReactNode }) {
  const admin = useIsAdmin();
  if (!admin) return <ErrorAlert error={forbidden} testId="admin-forbidden" />;
  return children;
}

/** Asks the server again who is signed in. When the session has ended, the frame's guard
 * then sends the visitor to sign in, remembering the page: the frame does so for every
 * failed query or mutation by itself; other calls (the photo upload) use this. */
export function useSessionCheck(): () => void {
  const client = useQueryClient();
  return useCallback(() => void client.refetchQueries({ queryKey: adminKeys.me }), [client]);
}
