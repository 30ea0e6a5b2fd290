//! Texts of the new-photo alerts feature (the offer after a face search, the answer back
//! from LINE, and the alert's page opened from its messages), Thai and English.

import { defineMessages } from '@/i18n/define';
import { useTranslate, type MessageKey, type Translate } from '@/i18n';
import { addMessages } from '@/i18n/messages';

export const alertsMessages = defineMessages(
  {
    'alert.offer.open': 'แจ้งเตือนเมื่อมีรูปใหม่ของฉัน',
    'alert.offer.intro':
      'ช่างภาพยังทยอยส่งรูปเข้ามา เราจะแจ้งคุณเมื่อพบรูปใหม่ของคุณในอีเวนต์นี้ โดยไม่ต้องกลับมาค้นหาเอง',
    'alert.offer.channel': 'รับการแจ้งเตือนทาง',
    'alert.offer.line': 'LINE',
    'alert.offer.sms': 'SMS',
    'alert.offer.mobile': 'เบอร์มือถือ',
    'alert.offer.mobileHint': 'เช่น 0812345678',
    'alert.offer.mobileError': 'กรุณากรอกเบอร์มือถือ 10 หลัก ขึ้นต้นด้วย 0',
    'alert.offer.undeliverable': 'ส่ง SMS ไปที่เบอร์นี้ไม่ได้ กรุณาตรวจสอบเบอร์ หรือเลือกรับทาง LINE',
    'alert.offer.consent':
      'ฉันยินยอมให้ร้านเก็บแม่แบบใบหน้า (face template) จากรูปเซลฟีนี้ไว้ เพื่อค้นหารูปใหม่ของฉันในอีเวนต์นี้เท่านั้น แม่แบบใบหน้าจะถูกลบเมื่อปิดการขายรูปของอีเวนต์นี้ เมื่อครบ 30 วัน หรือเมื่อฉันกด "หยุด" ในข้อความแจ้งเตือนใดก็ได้ แล้วแต่อย่างใดถึงก่อน ไม่จำเป็นต้องยินยอมเพื่อค้นหาหรือซื้อรูป',
    'alert.offer.submitLine': 'เปิดการแจ้งเตือนทาง LINE',
    'alert.offer.submitSms': 'ส่งรหัสยืนยันทาง SMS',
    'alert.offer.sending': 'กำลังส่ง...',
    'alert.offer.toLine': 'กำลังไปที่ LINE...',
    'alert.code.sent': 'เราส่งรหัสทาง SMS ไปที่ {contact} แล้ว กรุณากรอกรหัสภายใน {minutes} นาที',
    'alert.code.label': 'รหัส 6 หลัก',
    'alert.code.format': 'กรุณากรอกรหัส 6 หลักจาก SMS',
    'alert.code.confirm': 'ยืนยัน',
    'alert.on.sms': 'เปิดแล้ว: เราจะส่ง SMS หาคุณเมื่อมีรูปใหม่ของคุณ',
    'alert.on.until':
      'การแจ้งเตือนและแม่แบบใบหน้าจะถูกลบอย่างช้าที่สุดวันที่ {date} หรือเร็วกว่านั้นเมื่อปิดการขาย หรือเมื่อคุณกด "หยุด" ในข้อความ',
    'alert.outcome.linked': 'เปิดแล้ว: รูปใหม่ของคุณจะส่งไปที่ LINE ของคุณ',
    'alert.outcome.declined': 'ยังไม่ได้เปิดการแจ้งเตือน เพราะไม่ได้อนุญาตใน LINE',
    'alert.outcome.failed': 'เปิดการแจ้งเตือนทาง LINE ไม่สำเร็จ กรุณาค้นหารูปแล้วลองใหม่อีกครั้ง',

    'alert.page.title': 'รูปใหม่ของคุณ',
    'alert.page.count': 'รูปใหม่ของคุณ {count} รูป',
    'alert.page.none': 'ยังไม่มีรูปใหม่ของคุณ เราจะแจ้งเมื่อพบ',
    'alert.page.event': 'ไปที่หน้าอีเวนต์',
    'alert.page.until': 'การแจ้งเตือนนี้สิ้นสุดและแม่แบบใบหน้าถูกลบอย่างช้าที่สุดวันที่ {date}',
    'alert.page.stopFirst': 'ต้องการหยุดการแจ้งเตือน? กดปุ่มด้านล่างเพื่อหยุดและลบข้อมูลใบหน้าของคุณ',
    'alert.page.stop': 'หยุดการแจ้งเตือนนี้',
    'alert.page.stopping': 'กำลังหยุด...',
    'alert.page.stopped': 'หยุดการแจ้งเตือนแล้ว ข้อมูลใบหน้าของคุณถูกลบแล้ว',
    'alert.page.ended': 'การแจ้งเตือนนี้สิ้นสุดแล้วหรือถูกหยุดไปแล้ว',
    'alert.page.home': 'กลับหน้าแรก',
    'alert.photo.alt': 'รูปที่ {id}',
    'alert.photo.open': 'ดูรูปที่ {id} แบบขยาย',
    'alert.cart.add': 'ใส่ตะกร้า',
    'alert.cart.remove': 'นำออก',
    'alert.cart.added': 'เพิ่มลงตะกร้าแล้ว',
    'alert.cart.removed': 'นำออกจากตะกร้าแล้ว',
    'alert.cart.link': 'ไปที่ตะกร้า ({count} รูป)',
  },
  {
    'alert.offer.open': 'Tell me when new photos of me arrive',
    'alert.offer.intro':
      'Photographers keep sending photos in. We will tell you when new photos of you at this event are found, so you need not come back to search.',
    'alert.offer.channel': 'Send alerts by',
    'alert.offer.line': 'LINE',
    'alert.offer.sms': 'SMS',
    'alert.offer.mobile': 'Mobile number',
    'alert.offer.mobileHint': 'e.g. 0812345678',
    'alert.offer.mobileError': 'Please enter a 10-digit mobile number starting with 0.',
    'alert.offer.undeliverable': 'The code could not be texted to this number. Please check it, or choose LINE.',
    'alert.offer.consent':
      'I agree that the shop keeps a template of the face in this selfie to find new photos of me, only at this event. The template is deleted when the event’s sale ends, after at most 30 days, or when I tap "stop" in any alert message, whichever comes first. This is not needed to search or buy photos.',
    'alert.offer.submitLine': 'Turn on alerts in LINE',
    'alert.offer.submitSms': 'Text me a code',
    'alert.offer.sending': 'Sending…',
    'alert.offer.toLine': 'Opening LINE…',
    'alert.code.sent': 'We texted a code to {contact}. Please enter it within {minutes} minutes.',
    'alert.code.label': '6-digit code',
    'alert.code.format': 'Please enter the 6-digit code from the text message.',
    'alert.code.confirm': 'Confirm',
    'alert.on.sms': 'On: we will text you when new photos of you arrive',
    'alert.on.until':
      'The alert and its face template are deleted by {date} at the latest, sooner when the sale ends or when you tap "stop" in a message.',
    'alert.outcome.linked': 'On: new photos of you will come to your LINE',
    'alert.outcome.declined': 'Alerts are not on: LINE was not allowed.',
    'alert.outcome.failed': 'Alerts could not be turned on with LINE. Please search for your photos and try again.',

    'alert.page.title': 'New photos of you',
    'alert.page.count': '{count} new photos of you',
    'alert.page.none': 'No new photos of you yet: we will tell you when some arrive.',
    'alert.page.event': 'Go to the event page',
    'alert.page.until': 'This alert ends, and its face template is deleted, by {date} at the latest.',
    'alert.page.stopFirst': 'Want to stop? Tap the button below to stop these alerts and delete your face data.',
    'alert.page.stop': 'Stop these alerts',
    'alert.page.stopping': 'Stopping…',
    'alert.page.stopped': 'Alerts stopped. Your face data is deleted.',
    'alert.page.ended': 'This alert has ended or was stopped',
    'alert.page.home': 'Back to the home page',
    'alert.photo.alt': 'Photo {id}',
    'alert.photo.open': 'Open photo {id} full size',
    'alert.cart.add': 'Add to cart',
    'alert.cart.remove': 'Remove',
    'alert.cart.added': 'Added to cart',
    'alert.cart.removed': 'Removed from cart',
    'alert.cart.link': 'Go to cart ({count} photos)',
  },
);

// Loaded with the feature's chunk, not with the first script (see i18n/messages.ts).
addMessages(alertsMessages);

/** Every key this feature's translator takes: the shared texts' and its own. */
export type AlertMessageKey = MessageKey | keyof typeof alertsMessages.th;

/** The app's translator over this feature's texts: importing it from here brings them with it. */
export const useT = (): Translate<AlertMessageKey> => useTranslate<AlertMessageKey>();
