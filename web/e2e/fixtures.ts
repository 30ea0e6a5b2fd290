//! What the end-to-end suite adds beside the demo event: a free-download event and a
//! second paid event in the import file format (docs/event-import.md), and an admin account.

export const DEMO_EVENT = 'demo';
export const FREE_EVENT = 'free-fun-run';
export const SECOND_EVENT = 'night-run';
/** The console's first account, made with `raceshot admin create-user`. */
export const ADMIN = { email: 'admin@raceshot.test', password: 'console password 1' } as const;

const day = (from: Date, days: number) => new Date(from.getTime() + days * 86_400_000).toISOString().slice(0, 10);

export function eventJson(now: Date) {
  const common = {
    eventdate: day(now, -1),
    event_date_text: day(now, -1),
    province: 'เชียงใหม่',
    on_sale_start: day(now, -1),
    on_sale_end: day(now, 30),
  };
  return [
    { ...common, event_key: FREE_EVENT, title: 'Free Fun Run 2026', is_free_download: 'Y' },
    {
      ...common,
      event_key: SECOND_EVENT,
      title: 'Night Run 2026',
      package: [{ name: '1 รูป', name_en: '1 photo', number_of_photo: 1, price: 50 }],
    },
  ];
}
