//! Texts of the home feature, Thai and English.

import { defineMessages } from '@/i18n/define';
import { useTranslate, type MessageKey, type Translate } from '@/i18n';
import { addMessages } from '@/i18n/messages';

export const homeMessages = defineMessages(
  {
    'home.title': 'อีเวนต์ที่เปิดขายรูป',
    'home.intro': 'เลือกอีเวนต์ที่คุณร่วมวิ่ง แล้วอัปโหลดรูปเซลฟี่เพื่อค้นหารูปของคุณ',
    'home.banners': 'แบนเนอร์ประชาสัมพันธ์',
    'home.banner': 'แบนเนอร์ {n} จาก {count}',
    'home.bannerPrevious': 'แบนเนอร์ก่อนหน้า',
    'home.bannerNext': 'แบนเนอร์ถัดไป',
    'home.pinned': 'ปักหมุด',
    'home.location': 'สถานที่',
    'home.noEvents': 'ยังไม่มีอีเวนต์ที่เปิดขายในขณะนี้',
    'home.loadError': 'โหลดรายการอีเวนต์ไม่สำเร็จ กรุณาลองใหม่อีกครั้ง',
    'home.upcoming': 'อีเวนต์ที่กำลังจะเปิดขาย',
    'home.saleStarts': 'เปิดขาย {date}',
  },
  {
    'home.title': 'Events on sale',
    'home.intro': 'Choose the event you ran, then upload a selfie to find your photos.',
    'home.banners': 'Featured banners',
    'home.banner': 'Banner {n} of {count}',
    'home.bannerPrevious': 'Previous banner',
    'home.bannerNext': 'Next banner',
    'home.pinned': 'Pinned',
    'home.location': 'Location',
    'home.noEvents': 'No events are on sale right now.',
    'home.loadError': 'Could not load the events. Please try again.',
    'home.upcoming': 'Coming soon',
    'home.saleStarts': 'On sale from {date}',
  },
);

// Loaded with the feature's chunk, not with the first script (see i18n/messages.ts).
addMessages(homeMessages);

/** Every key this feature's translator takes: the shared texts' and its own. */
export type HomeMessageKey = MessageKey | keyof typeof homeMessages.th;

/** The app's translator over this feature's texts: importing it from here brings them with it. */
export const useT = (): Translate<HomeMessageKey> => useTranslate<HomeMessageKey>();
