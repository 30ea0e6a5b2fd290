//! The shop's logo: the current one (read from the console's logo address, asked for again
//! after an upload), and a new one chosen with a file input, checked here for size and for
//! PNG/JPEG bytes before anything is sent, then uploaded at once.

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type ChangeEvent } from 'react';
import { InputField } from '@/components/InputField';
import { useToast } from '@/components/Toast';
import { useDictionary } from '@/i18n';
import { useErrorText } from '@/i18n/errors';
import { logoUrl, settingsKey, uploadLogo } from './api';
import { settingsMessages } from './messages';
import { readBytes } from '@/lib/files';
import { MAX_LOGO_BYTES, sniffImage, type ImageKind } from './settingsModel';

const MAX_LOGO_MB = MAX_LOGO_BYTES / (1024 * 1024);

export function LogoSection({ shopLogo }: { shopLogo: boolean }) {
  const t = useDictionary(settingsMessages);
  const errorText = useErrorText();
  const toast = useToast();
  const queryClient = useQueryClient();
  // Set after an upload: the same address with a new query, so the browser asks again.
  const [version, setVersion] = useState<number | null>(null);
  const [broken, setBroken] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const upload = useMutation({
    mutationFn: ({ bytes, type }: { bytes: Uint8Array; type: ImageKind }) => uploadLogo(bytes, type),
    onSuccess: () => {
      setVersion(Date.now());
      setBroken(false);
      toast.success(t('adminSettings.logo.uploaded'));
      // `shop_logo` is now true.
      void queryClient.invalidateQueries({ queryKey: settingsKey });
    },
    onError: (e) => {
      setProblem(errorText(e));
      toast.error(errorText(e));
    },
  });

  const choose = async (e: ChangeEvent<HTMLInputElement>) => {
    const input = e.currentTarget;
    const file = input.files?.[0];
    // The same file can be chosen again after a refusal.
    input.value = '';
    if (!file) return;
    setProblem(null);
    if (file.size > MAX_LOGO_BYTES) {
      setProblem(t('adminSettings.logo.tooLarge', { name: file.name, mb: MAX_LOGO_MB }));
      return;
    }
    let bytes: Uint8Array;
    try {
      bytes = await readBytes(file);
    } catch {
      setProblem(t('adminSettings.logo.unreadable', { name: file.name }));
      return;
    }
    const type = sniffImage(bytes);
    if (type === null) {
      setProblem(t('adminSettings.logo.wrongType', { name: file.name }));
      return;
    }
    upload.mutate({ bytes, type });
  };

  const hasLogo = shopLogo || version !== null;
  return (
    <section className="card admin-settings-group" aria-labelledby="admin-settings-logo-title">
      <h2 id="admin-settings-logo-title">{t('adminSettings.group.logo')}</h2>
      <p className="admin-settings-help">{t('adminSettings.logo.help', { mb: MAX_LOGO_MB })}</p>
      <div className="admin-settings-logo-preview" data-testid="logo-preview">
        {!hasLogo ? (
          <p className="muted">{t('adminSettings.logo.none')}</p>
        ) : broken ? (
          <p className="muted">{t('adminSettings.logo.loadFailed')}</p>
        ) : (
          <img
            key={version ?? 0}
            className="admin-settings-logo-img"
            src={logoUrl(version)}
            alt={t('adminSettings.logo.current')}
            onError={() => setBroken(true)}
          />
        )}
      </div>
      <InputField
        id="admin-settings-logo-input"
        label={t('adminSettings.logo.choose')}
        fieldClassName="admin-settings-field"
        className="admin-settings-file"
        type="file"
        accept="image/png,image/jpeg"
        data-testid="logo-input"
        disabled={upload.isPending}
        aria-invalid={problem !== null}
        aria-describedby={problem !== null ? 'admin-settings-logo-error' : undefined}
        onChange={(e) => void choose(e)}
      >
        {upload.isPending && (
          <p className="admin-settings-uploading" role="status">
            <span className="spinner" aria-hidden="true" /> {t('adminSettings.logo.uploading')}
          </p>
        )}
        {problem !== null && (
          <p id="admin-settings-logo-error" className="field-error" role="alert" data-testid="logo-error">
            {problem}
          </p>
        )}
      </InputField>
    </section>
  );
}
