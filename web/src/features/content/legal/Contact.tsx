//! The shop's contact channels as the legal texts list them (language-neutral values).

import { CONTACT } from '@/lib/constants';

export function ContactChannels({ labels }: { labels: { line: string; facebook: string; email: string } }) {
  return (
    <ul>
      <li>
        {labels.line}:{' '}
        <a href={CONTACT.lineUrl} target="_blank" rel="noopener noreferrer">
          {CONTACT.line}
        </a>
      </li>
      <li>
        {labels.facebook}:{' '}
        <a href={CONTACT.facebook} target="_blank" rel="noopener noreferrer">
          {CONTACT.facebook.replace(/^https?:\/\/(www\.)?/, '')}
        </a>
      </li>
      <li>
        {labels.email}: <a href={`mailto:${CONTACT.email}`}>{CONTACT.email}</a>
      </li>
    </ul>
  );
}
