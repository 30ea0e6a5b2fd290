//! Texts of the qr feature, Thai and English.

import { defineMessages } from '@/i18n/define';
import { useTranslate, type MessageKey, type Translate } from '@/i18n';
import { addMessages } from '@/i18n/messages';

export const qrMessages = defineMessages(
  {
    'qr.title': 'QR Code ของอีเวนต์',
    'qr.intro': 'สแกน QR Code นี้เพื่อเปิดหน้าอีเวนต์และค้นหารูปด้วยใบหน้า นำไปติดที่จุดรับเหรียญ ป้าย หรือโพสต์ประชาสัมพันธ์ได้',
    'qr.address': 'ที่อยู่ของอีเวนต์',
    'qr.qrLabel': 'QR Code ของ {url}',
    'qr.hintTitle': 'สร้าง QR Code ของอีเวนต์อื่น',
    'qr.hint': 'เติม /qr ต่อท้ายที่อยู่ของอีเวนต์ใดก็ได้ เพื่อเปิดหน้านี้สำหรับอีเวนต์นั้น เช่น',
    'qr.printTitle': 'ไฟล์สำหรับพิมพ์ (1000 × 1000 พิกเซล)',
    'qr.withLogo': 'QR Code พร้อมโลโก้',
    'qr.textOnly': 'QR Code พร้อมรหัสอีเวนต์',
    'qr.downloadLogo': 'ดาวน์โหลด PNG พร้อมโลโก้',
    'qr.download': 'ดาวน์โหลด PNG',
  },
  {
    'qr.title': 'Event QR code',
    'qr.intro': 'Scan this QR code to open the event page and find photos by face. Put it at the medal desk, on signs or in posts.',
    'qr.address': 'Event address',
    'qr.qrLabel': 'QR code of {url}',
    'qr.hintTitle': 'QR code of another event',
    'qr.hint': 'Add /qr to the end of any event address to open this page for that event, for example',
    'qr.printTitle': 'Print files (1000 × 1000 pixels)',
    'qr.withLogo': 'QR code with logo',
    'qr.textOnly': 'QR code with event code',
    'qr.downloadLogo': 'Download PNG with logo',
    'qr.download': 'Download PNG',
  },
);

// Loaded with the feature's chunk, not with the first script (see i18n/messages.ts).
addMessages(qrMessages);

/** Every key this feature's translator takes: the shared texts' and its own. */
export type QrMessageKey = MessageKey | keyof typeof qrMessages.th;

/** The app's translator over this feature's texts: importing it from here brings them with it. */
export const useT = (): Translate<QrMessageKey> => useTranslate<QrMessageKey>();
