//! The card payment provider's hosted card form (OPN's omise.js): loaded on demand, once,
//! only when a visitor chooses to pay by card, so no other page carries it.

export const OMISE_SCRIPT = 'https://cdn.omise.co/omise.js';

type OmiseOpenOptions = {
  amount: number;
  currency: string;
  frameLabel: string;
  frameDescription: string;
  submitLabel: string;
  buttonLabel: string;
  onCreateTokenSuccess: (token: string) => void;
  onFormClosed: () => void;
};

export type OmiseCardApi = {
  configure: (options: { publicKey: string }) => void;
  open: (options: OmiseOpenOptions) => void;
};

declare global {
  interface Window {
    OmiseCard?: OmiseCardApi;
  }
}

let loading: Promise<OmiseCardApi> | null = null;

/** The global card form, adding its script tag the first time it is needed. */
export function loadOmiseCard(): Promise<OmiseCardApi> {
  if (window.OmiseCard) return Promise.resolve(window.OmiseCard);
  if (loading) return loading;
  loading = new Promise<OmiseCardApi>((resolve, reject) => {
    let script = document.querySelector<HTMLScriptElement>(`script[src="${OMISE_SCRIPT}"]`);
    if (!script) {
      script = document.createElement('script');
      script.src = OMISE_SCRIPT;
      script.async = true;
      document.head.appendChild(script);
    }
    script.addEventListener('load', () => {
      if (window.OmiseCard) resolve(window.OmiseCard);
      else reject(new Error('omise.js loaded without OmiseCard'));
    });
    script.addEventListener('error', () => reject(new Error('omise.js failed to load')));
  }).catch((e: unknown) => {
    // A failed load may succeed on the next press (e.g. after the network returns).
    loading = null;
    document.querySelector(`script[src="${OMISE_SCRIPT}"]`)?.remove();
    throw e;
  });
  return loading;
}
