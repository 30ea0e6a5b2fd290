//! The app's providers (server state, language, toasts, dialogs, the features' slots) around
//! the router.

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Suspense, useState } from 'react';
import { BrowserRouter } from 'react-router';
import { DialogProvider } from '@/components/Dialog';
import { Spinner } from '@/components/Spinner';
import { SlotsProvider } from '@/components/slots';
import { ToastProvider } from '@/components/Toast';
import { I18nProvider, useT } from '@/i18n';
import { ApiFailure } from '@/api/client';
import { AppRoutes } from './routes';
import { slots } from './slots';

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

/** Shown while the chunk of a page outside the shop's frame (the console) loads. */
function Loading() {
  const t = useT();
  return <Spinner label={t('loading')} />;
}

export function App() {
  const [queryClient] = useState(makeQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <I18nProvider>
        <ToastProvider>
          <DialogProvider>
            <SlotsProvider value={slots}>
              <BrowserRouter>
                <Suspense fallback={<Loading />}>
                  <AppRoutes />
                </Suspense>
              </BrowserRouter>
            </SlotsProvider>
          </DialogProvider>
        </ToastProvider>
      </I18nProvider>
    </QueryClientProvider>
  );
}
