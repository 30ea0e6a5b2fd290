//! The event form's lists of rows: the price tiers (standard and wholesale) and the banners,
//! each row with its inputs and a remove button, the list's own problems, and an add button.
//! Rows move up when one goes, so the problems of that list no longer point right: they go.

import { useFieldArray, useFormContext } from 'react-hook-form';
import { pathToWire } from './api';
import { BANNER_COLUMNS, emptyBanner, emptyTier, TIER_COLUMNS, type EventForm, type TierList } from './eventForm';
import { GroupError, TextInput } from './EventInputs';
import { useAdminEventsT } from './i18n';
import { useProblems } from './problems';

type Group = TierList | 'banners';

/** Adding a row takes away the list's own problem (too few rows); removing one, all of its. */
function useRowChanges(group: Group) {
  const { clear } = useProblems();
  return {
    added: () => clear((p) => p === group),
    removed: () => clear((p) => p === group || p.startsWith(`${group}[`)),
  };
}

function RemoveButton({ group, index, onClick }: { group: Group; index: number; onClick: () => void }) {
  const t = useAdminEventsT();
  return (
    <button
      type="button"
      className="btn btn-secondary btn-small admin-event-remove"
      data-testid={`remove-${pathToWire(group)}-${index}`}
      onClick={onClick}
    >
      {t('adminEvents.row.remove')}
    </button>
  );
}

export function TierGroup({ list, hint }: { list: TierList; hint: string }) {
  const t = useAdminEventsT();
  const { control } = useFormContext<EventForm>();
  const { fields, append, remove } = useFieldArray({ control, name: list });
  const { added, removed } = useRowChanges(list);
  const legend = t(`adminEvents.group.${list}`);
  return (
    <fieldset className="card admin-event-fieldset" data-testid={`group-${pathToWire(list)}`}>
      <legend>{legend}</legend>
      <p className="muted admin-event-hint">{hint}</p>
      {fields.length === 0 && <p className="muted">{t('adminEvents.tier.none')}</p>}
      {fields.map((row, i) => (
        <div key={row.id} className="admin-event-form-row" role="group" aria-label={`${legend} ${i + 1}`}>
          {TIER_COLUMNS.map((column) => (
            <TextInput
              key={column}
              name={`${list}.${i}.${column}`}
              group={list}
              label={t(`adminEvents.tier.${column}`)}
              inputMode={column === 'price' ? 'decimal' : column === 'number_of_photo' ? 'numeric' : undefined}
              required={column !== 'name_en'}
            />
          ))}
          <RemoveButton group={list} index={i} onClick={() => {
              remove(i);
              removed();
            }} />
        </div>
      ))}
      <GroupError group={list} />
      <button
        type="button"
        className="btn btn-secondary btn-small"
        data-testid={`add-${pathToWire(list)}`}
        onClick={() => {
          append(emptyTier(), { shouldFocus: false });
          added();
        }}
      >
        {t('adminEvents.tier.add')}
      </button>
    </fieldset>
  );
}

export function BannerGroup() {
  const t = useAdminEventsT();
  const { control } = useFormContext<EventForm>();
  const { fields, append, remove } = useFieldArray({ control, name: 'banners' });
  const { added, removed } = useRowChanges('banners');
  const legend = t('adminEvents.group.banners');
  return (
    <fieldset className="card admin-event-fieldset" data-testid="group-banners">
      <legend>{legend}</legend>
      <p className="muted admin-event-hint">{t('adminEvents.hint.banners')}</p>
      {fields.map((row, i) => (
        <div key={row.id} className="admin-event-form-row" role="group" aria-label={`${legend} ${i + 1}`}>
          {BANNER_COLUMNS.map((column) => (
            <TextInput
              key={column}
              name={`banners.${i}.${column}`}
              label={t(`adminEvents.banner.${column}`)}
              type="url"
              required={column === 'image_url'}
            />
          ))}
          <RemoveButton group="banners" index={i} onClick={() => {
              remove(i);
              removed();
            }} />
        </div>
      ))}
      <GroupError group="banners" />
      <button
        type="button"
        className="btn btn-secondary btn-small"
        data-testid="add-banners"
        onClick={() => {
          append(emptyBanner(), { shouldFocus: false });
          added();
        }}
      >
        {t('adminEvents.banner.add')}
      </button>
    </fieldset>
  );
}
