//! Texts of the console's sponsor frame page, Thai and English. Kept out of the shop's
//! dictionary: they load only with the console.

import { defineMessages } from '@/i18n/define';

export const frameMessages = defineMessages(
  {
    'adminFrame.title': 'กรอบผู้สนับสนุน: {event}',
    'adminFrame.intro':
      'กรอบผู้สนับสนุนจะแสดงทับบนรูปตัวอย่างของอีเวนต์นี้ และติดไปกับรูปที่ดาวน์โหลดฟรี (ซึ่งจะได้เฉพาะรูปที่มีกรอบ) ถ้าเลือกไว้ รูปที่ขายจะได้สำเนาที่มีกรอบเป็นไฟล์ที่สาม คู่กับไฟล์ต้นฉบับและไฟล์ที่มีโลโก้ ใช้ไฟล์ PNG ที่มีส่วนโปร่งใส หรือไฟล์ SVG ขนาดไม่เกิน {mb} MB และโปร่งใสอย่างน้อย 40% ของพื้นที่ กรอบจะถูกยืดให้เต็มความกว้างและความสูงของแต่ละรูป จึงควรออกแบบสำหรับรูปแนวนอนสัดส่วน 3:2',
    'adminFrame.current': 'กรอบที่ใช้อยู่',
    'adminFrame.none': 'อีเวนต์นี้ยังไม่มีกรอบ',
    'adminFrame.preview': 'กรอบบนรูปสีเทาสัดส่วน 3:2',
    'adminFrame.choose': 'ไฟล์กรอบ (PNG หรือ SVG)',
    'adminFrame.upload': 'อัปโหลดกรอบ',
    'adminFrame.uploaded': 'อัปโหลดกรอบแล้ว',
    'adminFrame.noFile': 'กรุณาเลือกไฟล์ PNG หรือ SVG ก่อน',
    'adminFrame.tooLarge': 'ไฟล์ {name} มีขนาดเกิน {mb} MB',
    'adminFrame.wrongType': 'ไฟล์ {name} ไม่ใช่ไฟล์ PNG หรือ SVG',
    'adminFrame.unreadable': 'อ่านไฟล์ {name} ไม่ได้',
    'adminFrame.onSold': 'ให้รูปที่ขายมีสำเนาที่มีกรอบด้วย',
    'adminFrame.onSoldOn': 'รูปที่ขายจะมีสำเนาที่มีกรอบด้วยแล้ว',
    'adminFrame.onSoldOff': 'รูปที่ขายจะไม่มีสำเนาที่มีกรอบแล้ว',
    'adminFrame.remove': 'นำกรอบออก',
    'adminFrame.removeConfirm':
      'นำกรอบของอีเวนต์นี้ออกหรือไม่? คำสั่งซื้อใหม่และการดาวน์โหลดฟรีจะไม่มีกรอบ ส่วนคำสั่งซื้อที่ทำไปแล้วยังได้รับแบบเดิม',
    'adminFrame.removed': 'นำกรอบออกแล้ว',
  },
  {
    'adminFrame.title': 'Sponsor frame: {event}',
    'adminFrame.intro':
      'A sponsor frame is drawn over this event’s photo previews and carried by free downloads, which then give only the framed photo. When you choose, sold photos also get a framed copy as a third file, beside the original and the logo copy. Upload a PNG with transparency or an SVG, at most {mb} MB, see-through over at least 40% of its area. It is stretched to each photo’s width and height, so design it for 3:2 landscape photos.',
    'adminFrame.current': 'The frame in use',
    'adminFrame.none': 'This event has no frame yet.',
    'adminFrame.preview': 'The frame over a grey 3:2 photo',
    'adminFrame.choose': 'Frame file (PNG or SVG)',
    'adminFrame.upload': 'Upload the frame',
    'adminFrame.uploaded': 'Frame uploaded.',
    'adminFrame.noFile': 'Choose a PNG or SVG file first.',
    'adminFrame.tooLarge': '{name} is over {mb} MB.',
    'adminFrame.wrongType': '{name} is not a PNG or SVG file.',
    'adminFrame.unreadable': '{name} could not be read.',
    'adminFrame.onSold': 'Also give sold photos a framed copy',
    'adminFrame.onSoldOn': 'Sold photos now also get a framed copy.',
    'adminFrame.onSoldOff': 'Sold photos now come without a framed copy.',
    'adminFrame.remove': 'Remove the frame',
    'adminFrame.removeConfirm':
      'Remove this event’s frame? New orders and free downloads come without it; orders already made keep theirs.',
    'adminFrame.removed': 'Frame removed.',
  },
);
