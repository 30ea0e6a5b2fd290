//! Reading a file the visitor chose. FileReader, because it reads every Blob the same way
//! in every browser (and in the tests' DOM, whose Blob has neither `arrayBuffer()` nor
//! `text()`).

function read<T>(start: (reader: FileReader) => void, take: (result: FileReader['result']) => T | null) {
  return new Promise<T>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const value = take(reader.result);
      if (value !== null) resolve(value);
      else reject(new Error('the file could not be read'));
    };
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'));
    start(reader);
  });
}

/** A file's bytes. */
export function readBytes(blob: Blob): Promise<Uint8Array> {
  return read(
    (r) => r.readAsArrayBuffer(blob),
    // Not `instanceof ArrayBuffer`: the buffer may come from another realm (the DOM's).
    (result) => (result !== null && typeof result !== 'string' ? new Uint8Array(result) : null),
  );
}

/** A text file's text, read as UTF-8. */
export function readText(blob: Blob): Promise<string> {
  return read(
    (r) => r.readAsText(blob, 'utf-8'),
    (result) => (typeof result === 'string' ? result : null),
  );
}
