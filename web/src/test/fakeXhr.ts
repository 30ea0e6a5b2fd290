//! A stand-in XMLHttpRequest for the upload tests (the selfie PUT):
//! it records each request sent, and answers at once unless `FakeXhr.manual` is set (the
//! test then calls `progress` and `finish`), or loses the connection when
//! `FakeXhr.networkError` is.

type Progress = { lengthComputable: boolean; loaded: number; total: number };

export class FakeXhr {
  static instances: FakeXhr[] = [];
  static manual = false;
  static networkError = false;
  static answer = { status: 200, text: '{"status":"success"}' };

  /** The request sent last. */
  static get last(): FakeXhr | undefined {
    return FakeXhr.instances.at(-1);
  }

  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown = null;
  status = 0;
  statusText = '';
  responseText = '';
  upload: { onprogress: ((e: Progress) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  ontimeout: (() => void) | null = null;

  static reset() {
    FakeXhr.instances = [];
    FakeXhr.manual = false;
    FakeXhr.networkError = false;
    FakeXhr.answer = { status: 200, text: '{"status":"success"}' };
  }

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }

  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }

  send(body: unknown) {
    this.body = body;
    FakeXhr.instances.push(this);
    if (!FakeXhr.manual) {
      setTimeout(() => {
        if (FakeXhr.networkError) {
          this.onerror?.();
          return;
        }
        this.progress(50);
        this.finish(FakeXhr.answer.status, FakeXhr.answer.text);
      }, 0);
    }
  }

  abort() {
    this.onabort?.();
  }

  progress(percent: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded: percent, total: 100 });
  }

  finish(status: number, text = '') {
    this.status = status;
    this.responseText = text;
    this.onload?.();
  }
}
