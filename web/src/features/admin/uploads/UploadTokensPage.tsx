//! Upload tokens (`/admin/uploads`): what a camera's FTP and the photographer's uploader
//! sign in with. Everyone lists and revokes the tokens in their reach (a photographer their
//! own, an admin everyone's) and makes new ones; an admin may make one for another account.
//! A new token's secret is shown once, here, right after it is made.

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { DataTable } from '@/components/DataTable';
import { useDialog } from '@/components/Dialog';
import { InputField } from '@/components/InputField';
import { Spinner } from '@/components/Spinner';
import { useToast } from '@/components/Toast';
import { useDictionary, useLanguage, useT } from '@/i18n';
import { useErrorText } from '@/i18n/errors';
import { formatBangkokDateTime } from '@/lib/dates';
import { useIsAdmin } from '../shell/operator';
import { RetryAlert } from '../shell/RetryAlert';
import { isSignedOut } from '../shell/session';
import {
  MAX_LABEL_CHARS,
  createUploadToken,
  fetchUploadTokens,
  revokeUploadToken,
  uploadTokensKey,
  type NewUploadToken,
  type UploadToken,
} from './api';
import { uploadMessages } from './messages';

export function UploadTokensPage() {
  const t = useDictionary(uploadMessages);
  const [made, setMade] = useState<NewUploadToken | null>(null);
  return (
    <section className="admin-page stack">
      <h1>{t('adminUploads.title')}</h1>
      <p className="muted">{t('adminUploads.intro')}</p>
      <NewTokenForm onMade={setMade} />
      {made && <NewSecret made={made} />}
      <TokenList />
    </section>
  );
}

function NewTokenForm({ onMade }: { onMade: (made: NewUploadToken) => void }) {
  const t = useDictionary(uploadMessages);
  const errorText = useErrorText();
  const isAdmin = useIsAdmin();
  const client = useQueryClient();
  const [label, setLabel] = useState('');
  const [account, setAccount] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: () => createUploadToken(label.trim(), isAdmin && account.trim() !== '' ? account.trim() : null),
    onSuccess: (made) => {
      setLabel('');
      setAccount('');
      onMade(made);
      return client.invalidateQueries({ queryKey: uploadTokensKey });
    },
    onError: (e) => {
      if (!isSignedOut(e)) setProblem(errorText(e));
    },
  });
  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    setProblem(null);
    // Code points, as the server counts characters.
    const length = Array.from(label.trim()).length;
    if (length === 0 || length > MAX_LABEL_CHARS) {
      setProblem(t('adminUploads.labelRequired', { max: MAX_LABEL_CHARS }));
      return;
    }
    create.mutate();
  };
  return (
    <form className="card stack" noValidate onSubmit={submit} data-testid="upload-token-form">
      <InputField
        id="upload-token-label"
        label={t('adminUploads.label')}
        value={label}
        maxLength={MAX_LABEL_CHARS}
        onChange={(e) => setLabel(e.currentTarget.value)}
        data-testid="upload-token-label"
      />
      {isAdmin && (
        <InputField
          id="upload-token-account"
          type="email"
          label={t('adminUploads.account')}
          value={account}
          onChange={(e) => setAccount(e.currentTarget.value)}
          data-testid="upload-token-account"
        />
      )}
      {problem !== null && (
        <p className="alert alert-danger" role="alert" data-testid="upload-token-problem">
          {problem}
        </p>
      )}
      <div className="row">
        <button type="submit" className="btn btn-primary" disabled={create.isPending} data-testid="upload-token-create">
          {t('adminUploads.create')}
        </button>
      </div>
    </form>
  );
}

function NewSecret({ made }: { made: NewUploadToken }) {
  const t = useDictionary(uploadMessages);
  return (
    <div className="alert alert-success stack" role="status" data-testid="upload-token-secret">
      <strong>{t('adminUploads.secretTitle')}</strong>
      <code className="admin-wrap" data-testid="upload-token-secret-value">
        {made.secret}
      </code>
      <span>
        {made.token.label} · {made.token.account_email}
      </span>
      <small>{t('adminUploads.secretHelp')}</small>
    </div>
  );
}

function TokenList() {
  const t = useDictionary(uploadMessages);
  const common = useT();
  const tokens = useQuery({ queryKey: uploadTokensKey, queryFn: fetchUploadTokens });
  return (
    <section className="stack" aria-labelledby="upload-tokens-list">
      <h2 id="upload-tokens-list">{t('adminUploads.list')}</h2>
      {tokens.isPending && <Spinner label={common('loading')} />}
      {tokens.isError && <RetryAlert query={tokens} />}
      {tokens.isSuccess && tokens.data.length === 0 && (
        <p className="muted" data-testid="upload-tokens-empty">
          {t('adminUploads.empty')}
        </p>
      )}
      {tokens.isSuccess && tokens.data.length > 0 && <TokenRows tokens={tokens.data} />}
    </section>
  );
}

function TokenRows({ tokens }: { tokens: UploadToken[] }) {
  const t = useDictionary(uploadMessages);
  const [lang] = useLanguage();
  return (
    <DataTable
      className="admin-table"
      testId="upload-tokens-table"
      label={t('adminUploads.list')}
      columns={[
        t('adminUploads.col.label'),
        t('adminUploads.col.account'),
        t('adminUploads.col.hint'),
        t('adminUploads.col.created'),
        t('adminUploads.col.lastUsed'),
        t('adminUploads.col.state'),
        '',
      ]}
    >
      {tokens.map((token) => (
        <tr key={token.id} data-testid="upload-token-row">
          <td className="admin-wrap">{token.label}</td>
          <td className="admin-wrap">{token.account_email}</td>
          <td>
            <code>…{token.hint}</code>
          </td>
          <td className="admin-nowrap">{formatBangkokDateTime(token.created_at, lang)}</td>
          <td className="admin-nowrap">
            {token.last_used_at ? formatBangkokDateTime(token.last_used_at, lang) : t('adminUploads.never')}
          </td>
          <td data-testid="upload-token-state">
            {token.revoked_at
              ? t('adminUploads.revoked', { when: formatBangkokDateTime(token.revoked_at, lang) })
              : t('adminUploads.live')}
          </td>
          <td>{!token.revoked_at && <RevokeButton token={token} />}</td>
        </tr>
      ))}
    </DataTable>
  );
}

function RevokeButton({ token }: { token: UploadToken }) {
  const t = useDictionary(uploadMessages);
  const errorText = useErrorText();
  const toast = useToast();
  const { confirm } = useDialog();
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: uploadTokensKey });
  const revoke = useMutation({
    mutationFn: () => revokeUploadToken(token.id),
    onSuccess: () => {
      toast.success(t('adminUploads.revoke.done'));
      return refresh();
    },
    onError: (e) => {
      if (!isSignedOut(e)) toast.error(errorText(e));
      void refresh();
    },
  });
  const onRevoke = async () => {
    const ok = await confirm({
      title: t('adminUploads.revoke.title'),
      text: t('adminUploads.revoke.text', { label: token.label }),
      okLabel: t('adminUploads.revoke'),
      tone: 'warning',
    });
    if (ok) revoke.mutate();
  };
  return (
    <button
      type="button"
      className="btn btn-danger btn-small"
      disabled={revoke.isPending}
      data-testid="upload-token-revoke"
      onClick={() => void onRevoke()}
    >
      {t('adminUploads.revoke')}
    </button>
  );
}
