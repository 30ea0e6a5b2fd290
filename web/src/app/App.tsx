//! The app's providers (server state, language, toasts, dialogs) around the router.

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { DialogProvider } from '@/components/Dialog';
import { ToastProvider } from '@/components/Toast';
import { I18nProvider } from '@/i18n';
import { ApiFailure } from '@/api/client';
import { routes } from './routes';

function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // A 4xx will not change by asking again; network trouble and 5xx may.
        retry: (count, e) => count < 2 && !(e instanceof ApiFailure && e.status >= 400 && e.status < 500),
      },
    },
  });
}

export function App() {
  const [queryClient] = useState(makeQueryClient);
  const [router] = useState(() => createBrowserRouter(routes));
  return (
    <QueryClientProvider client={queryClient}>
      <I18nProvider>
        <ToastProvider>
          <DialogProvider>
            <RouterProvider router={router} />
          </DialogProvider>
        </ToastProvider>
      </I18nProvider>
    </QueryClientProvider>
  );
}
