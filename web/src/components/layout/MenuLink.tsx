//! One menu item drawn by its type.

import { NavLink } from 'react-router';
import { useT } from '@/i18n';
import type { MenuItem } from './menu';

export function MenuLink({ item, onNavigate }: { item: MenuItem; onNavigate?: () => void }) {
  const t = useT();
  switch (item.type) {
    case 'headtitle':
      return <span className="menu-head">{t(item.title)}</span>;
    case 'link':
      return (
        <NavLink to={item.path} end onClick={onNavigate}>
          {t(item.title)}
        </NavLink>
      );
    case 'extLink':
      return <a href={item.path}>{t(item.title)}</a>;
    case 'extTabLink':
      return (
        <a href={item.path} target="_blank" rel="noopener noreferrer">
          {t(item.title)} ↗
        </a>
      );
    case 'sub':
      return (
        <details>
          <summary>{t(item.title)}</summary>
          <ul>
            {item.children.map((child, i) => (
              <li key={i}>
                <MenuLink item={child} onNavigate={onNavigate} />
              </li>
            ))}
          </ul>
        </details>
      );
  }
}
