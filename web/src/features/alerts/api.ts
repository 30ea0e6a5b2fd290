//! The new-photo alerts' calls: the channels the shop offers now (the `ALERTS` setting),
//! asking for an alert with the selfie just searched with (a multipart form, as the request
//! to hide one's photos), confirming an SMS alert with its texted code, and, by a message's
//! link (`t`), the alert's new photos and stopping it.

import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '@/api/client';
import type { components } from '@/api/schema';

type Schemas = components['schemas'];
export type AlertAsked = Schemas['AlertAsked'];
export type AlertConfirmed = Schemas['AlertConfirmed'];
export type AlertBody = Schemas['AlertBody'];
export type AlertPhotos = Schemas['AlertPhotos'];

/** How an alert reaches the runner, in the order the offer lists them (LINE first). */
export const ALERT_CHANNELS = ['line', 'sms'] as const;
export type AlertChannel = (typeof ALERT_CHANNELS)[number];

export const alertQueryKeys = {
  channels: ['alerts', 'conf', 'ALERTS'] as const,
  alert: (alertId: string, token: string) => ['alerts', alertId, token] as const,
};

/** The channels of the setting's comma-separated value that this app knows, LINE first;
 * none when the shop offers no alerts (`""`). */
export function parseChannels(value: string): AlertChannel[] {
  const named = value.split(',').map((v) => v.trim().toLowerCase());
  return ALERT_CHANNELS.filter((c) => named.includes(c));
}

/** The channels alerts can be asked for by now; asked once per page. */
export const alertChannelsQuery = queryOptions({
  queryKey: alertQueryKeys.channels,
  queryFn: async () =>
    parseChannels((await unwrap(api.POST('/v1/utils/conf', { body: { conf_name: 'ALERTS' } }))).body.value),
  staleTime: Infinity,
});

export type AlertRequest = {
  eventKey: string;
  channel: AlertChannel;
  /** The number the code and the alerts are texted to (SMS only). */
  mobile: string;
  /** The visitor ticked the box agreeing to the face template being kept. */
  consent: boolean;
  file: File;
};

/** Asks for an alert of new photos of the selfie's face at the event: SMS answers the
 * masked number a code went to (`next: code`), LINE the address of LINE Login that confirms
 * it (`next: line`). Refused without consent (422 `alert_consent_required`). */
export function askAlert({ eventKey, channel, mobile, consent, file }: AlertRequest): Promise<AlertAsked> {
  const form = new FormData();
  form.set('event_key', eventKey);
  form.set('channel', channel);
  if (channel === 'sms') form.set('mobile', mobile);
  if (consent) form.set('consent', 'yes');
  form.set('file', file, file.name);
  // The client sends a FormData as it is (the browser writes its boundary).
  return unwrap(api.POST('/api/alerts', { body: {}, bodySerializer: () => form }));
}

/** Confirms an SMS alert with the code texted: 422 `access_code_invalid` for a wrong code,
 * `access_code_expired` once too many were wrong (ask again). */
export function confirmAlert(alertId: string, code: string): Promise<AlertConfirmed> {
  return unwrap(api.POST('/api/alerts/{alert_id}/confirm', { params: { path: { alert_id: alertId } }, body: { code } }));
}

/** The parameters of a message's link: the alert's id, and its token (`?t=`). */
const linkParams = (alertId: string, token: string) => ({ path: { alert_id: alertId }, query: { t: token } });

/** The alert of a message's link and the photos found for it since it was confirmed;
 * 404 `alert_not_found` once stopped or ended, or for a link that does not fit. */
export function fetchAlert(alertId: string, token: string): Promise<AlertPhotos> {
  return unwrap(api.GET('/api/alerts/{alert_id}', { params: linkParams(alertId, token) }));
}

export function useAlertPhotos(alertId: string, token: string) {
  return useQuery({
    queryKey: alertQueryKeys.alert(alertId, token),
    queryFn: () => fetchAlert(alertId, token),
    enabled: alertId !== '',
  });
}

/** Stops the alert of a message's link: the alert and its face template are deleted now. */
export function stopAlert(alertId: string, token: string) {
  return unwrap(api.DELETE('/api/alerts/{alert_id}', { params: linkParams(alertId, token) }));
}
