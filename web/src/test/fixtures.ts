//! Test fixtures of the shop, as the API answers them: an event, photos and a selfie file
//! (tests only; no page imports this). The event pages', the cart's and the home page's
//! tests build their events on this one.

import type { EventBody, PhotoBody } from '@/api/types';

export function makeEvent(extra: Partial<EventBody> = {}): EventBody {
  return {
    event_id: 7,
    event_key: 'bkk-10k',
    title: 'Bangkok 10K',
    coverurl: 'https://img.example/cover.jpg',
    event_date_text: '12 มกราคม 2568',
    eventdate: '2025-01-12',
    province: 'กรุงเทพมหานคร',
    on_sale_start: '2025-01-12T08:00:00+07:00',
    on_sale_end: '2025-02-12T23:59:00+07:00',
    on_sale_start_txt: '2025-01-12 08:00',
    day_diff: 20,
    can_sale: 'Y',
    close_sale: 'N',
    is_hybrid: 'N',
    is_mhao_hybrid: 'N',
    hybrid_mhao_price: null,
    is_mhao: 'N',
    mhao_price: null,
    is_event_stage: 'N',
    is_free_download: 'N',
    is_free_download_keep_contract: 'N',
    caption_button_buy_all: '',
    face_threshold: 0.6,
    max_face_search: 50,
    package: [
      { name: '1 รูป', name_en: '1 photo', number_of_photo: 1, price: 99 },
      { name: '5 รูป', name_en: '5 photos', number_of_photo: 5, price: 399 },
    ],
    package_hb: [{ name: 'เหมา 20 รูป', name_en: '20 photos wholesale', number_of_photo: 20, price: 1500 }],
    pin: 0,
    event_status: 'ON_SALE',
    ...extra,
  };
}

export function makePhoto(id: number): PhotoBody {
  return {
    id,
    original_file_name: `IMG_${String(id)}.jpg`,
    thumbnail_file_name: `t_${String(id)}.jpg`,
    preview_file_name: `p_${String(id)}.jpg`,
    photographer_id: 3,
    event_id: 7,
    atc: 'N',
    thumbnail_url: `https://img.example/thumb/${String(id)}.jpg`,
    preview_url: `https://img.example/preview/${String(id)}.jpg`,
    similarity: 0.9,
  };
}

export const jpeg = (name = 'me.jpg', bytes = 1000) => new File([new Uint8Array(bytes)], name, { type: 'image/jpeg' });
