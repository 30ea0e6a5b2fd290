//! Saving the event form: the PUT, then the events list and the event asked for again and
//! back to the list with a toast; a refusal naming fields gives its problems to show beside
//! them, any other failure its text (shown above the buttons and in a toast).

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiFailure } from '@/api/client';
import { useToast } from '@/components/Toast';
import { useErrorText } from '@/i18n/errors';
import { adminKeys } from '../shell/api';
import { eventKey, saveEvent } from './api';
import type { EventForm } from './eventForm';
import { useAdminEventsT } from './i18n';
import type { Problem } from './problems';

/** `key`: the event's key when editing one; a new event's is the form's. */
export function useSaveEvent(key: string | null, onProblems: (found: Problem[]) => void) {
  const t = useAdminEventsT();
  const errorText = useErrorText();
  const toast = useToast();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [saveError, setSaveError] = useState<string | null>(null);

  const save = useMutation({
    mutationFn: (values: EventForm) => saveEvent(key ?? values.event_key.trim(), values),
    onSuccess: async (written) => {
      toast.success(
        t(written.result === 'created' ? 'adminEvents.saved.created' : 'adminEvents.saved.updated', {
          key: written.event_key,
        }),
      );
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.events }),
        queryClient.invalidateQueries({ queryKey: eventKey(written.event_key) }),
      ]);
      void navigate('/admin/events');
    },
    onError: (e) => {
      if (e instanceof ApiFailure && e.errors.length > 0) {
        onProblems(e.errors.map((p) => ({ field: p.field, message: p.message })));
        return;
      }
      setSaveError(errorText(e));
      toast.error(errorText(e));
    },
  });
  return { save, saveError, clearSaveError: () => setSaveError(null) };
}
