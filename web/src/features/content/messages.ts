//! Texts of the content feature, Thai and English. The long legal texts live in
//! `legal/` as one component per language instead.

import { defineMessages } from '@/i18n/define';
import { useTranslate, type MessageKey, type Translate } from '@/i18n';
import { addMessages } from '@/i18n/messages';

export const contentMessages = defineMessages(
  {
    'content.howToOrder.title': 'วิธีสั่งซื้อรูป',
    'content.howToOrder.intro': 'ซื้อรูปวิ่งของคุณได้ง่าย ๆ ใน 5 ขั้นตอน ไม่ต้องสมัครสมาชิก',
    'content.howToOrder.step': 'ขั้นตอนที่ {n}',
    'content.howToOrder.step1.title': 'เลือกอีเวนต์',
    'content.howToOrder.step1.text':
      'ที่หน้าแรก เลือกอีเวนต์ที่คุณเข้าร่วม แล้วกดยอมรับข้อกำหนดและนโยบายเมื่อเข้าอีเวนต์ครั้งแรก',
    'content.howToOrder.step2.title': 'อัปโหลดรูปเซลฟี่',
    'content.howToOrder.step2.text':
      'อัปโหลดรูปหน้าตรงของคุณเพียงคนเดียว เห็นใบหน้าชัดเจน (ไฟล์ jpg หรือ png ขนาดไม่เกิน 5MB) ระบบ AI จะค้นหารูปที่มีใบหน้าของคุณจากรูปทั้งหมดในอีเวนต์',
    'content.howToOrder.step3.title': 'เลือกรูปใส่ตะกร้า',
    'content.howToOrder.step3.text':
      'กดเพิ่มรูปที่ต้องการลงตะกร้า หรือเลือกซื้อแบบเหมาทุกรูปหากอีเวนต์เปิดให้ ราคาแพ็กเกจจะคำนวณให้อัตโนมัติ รูปในตะกร้าต้องมาจากอีเวนต์เดียวกัน',
    'content.howToOrder.step4.title': 'ชำระเงินด้วยพร้อมเพย์หรือบัตร',
    'content.howToOrder.step4.text':
      'ในตะกร้า กรอกเบอร์มือถือ (และอีเมลถ้าต้องการ) เลือกชำระด้วย QR พร้อมเพย์ หรือบัตรเครดิต/เดบิต ยอดชำระรวมค่าธรรมเนียมการชำระเงิน 5%',
    'content.howToOrder.step5.title': 'ดาวน์โหลดรูป',
    'content.howToOrder.step5.text':
      'เมื่อชำระเงินแล้ว หน้าคำสั่งซื้อจะให้ดาวน์โหลดรูปต้นฉบับ หรือรูปต้นฉบับพร้อมโลโก้ ทีละรูปหรือทั้งหมดเป็นไฟล์ zip เก็บลิงก์หน้าคำสั่งซื้อไว้ หรือค้นหาภายหลังด้วยเบอร์มือถือ',
    'content.howToOrder.goEvents': 'เลือกอีเวนต์',
    'content.howToOrder.goHowToUse': 'วิธีบันทึกรูปลงเครื่อง',
    'content.howToOrder.goFindOrder': 'ค้นหาคำสั่งซื้อ',
    'content.howToOrder.retention': 'รูปจะถูกเก็บไว้ประมาณ 35 วันหลังวันจัดงาน กรุณาดาวน์โหลดเก็บไว้ภายในเวลานี้',

    'content.about.title': 'เกี่ยวกับ Raceshot',
    'content.about.intro':
      'Raceshot คือแพลตฟอร์มซื้อขายรูปจากงานวิ่งและงานอีเวนต์ ที่ใช้ AI ค้นหารูปด้วยใบหน้า นักวิ่งไม่ต้องไล่ดูรูปนับหมื่นรูปเอง เพียงอัปโหลดเซลฟี่หนึ่งรูปก็พบรูปของตัวเองภายในไม่กี่วินาที',
    'content.about.missionTitle': 'พันธกิจของเรา',
    'content.about.mission':
      'เราต้องการให้ทุกความทรงจำบนเส้นทางวิ่งถูกเก็บไว้ได้ง่าย และให้ช่างภาพได้รับผลตอบแทนที่เป็นธรรมจากผลงานของตน',
    'content.about.point1': 'ค้นหารูปด้วยใบหน้า รวดเร็วและแม่นยำ',
    'content.about.point2': 'ชำระเงินสะดวกด้วยพร้อมเพย์หรือบัตร ไม่ต้องสมัครสมาชิก',
    'content.about.point3': 'ดาวน์โหลดรูปต้นฉบับความละเอียดสูง พร้อมตัวเลือกรูปมีโลโก้',
    'content.about.point4': 'ช่างภาพอัปโหลดและขายผลงานผ่านเว็บไซต์สำหรับช่างภาพ',
    'content.about.contactTitle': 'ติดต่อเรา',
    'content.about.contactText': 'มีคำถามเรื่องรูป คำสั่งซื้อ หรือการชำระเงิน ติดต่อทีมงานได้ทุกช่องทาง',
    'content.about.line': 'LINE Official Account',
    'content.about.facebook': 'เพจ Facebook',
    'content.about.email': 'อีเมล',
    'content.about.photographerTitle': 'สำหรับช่างภาพ',
    'content.about.photographerText': 'ช่างภาพที่ต้องการขายรูปกับเรา สมัครและอัปโหลดผลงานได้ที่เว็บไซต์สำหรับช่างภาพ',
    'content.about.photographerLink': 'ไปยังเว็บไซต์ช่างภาพ',

    'content.howToUse.title': 'วิธีบันทึกรูปที่ดาวน์โหลด',
    'content.howToUse.intro':
      'หลังชำระเงิน คุณดาวน์โหลดรูปได้จากหน้าคำสั่งซื้อ ทีละรูปหรือทั้งหมดเป็นไฟล์ zip ด้านล่างคือวิธีบันทึกรูปลงอุปกรณ์แต่ละแบบ',
    'content.howToUse.ios.title': 'iPhone / iPad',
    'content.howToUse.ios.single1': 'เปิดหน้าคำสั่งซื้อด้วย Safari แล้วกดปุ่ม View ที่รูปที่ต้องการ',
    'content.howToUse.ios.single2': 'รูปจะเปิดในแท็บใหม่ แตะค้างที่รูป แล้วเลือก "บันทึกไปยังรูปภาพ" (Save to Photos)',
    'content.howToUse.ios.zip1': 'หากดาวน์โหลดทั้งหมดเป็นไฟล์ zip ให้เปิดแอป "ไฟล์" (Files) แล้วไปที่โฟลเดอร์ "ดาวน์โหลด"',
    'content.howToUse.ios.zip2': 'แตะที่ไฟล์ zip ระบบจะแตกไฟล์เป็นโฟลเดอร์ให้อัตโนมัติ',
    'content.howToUse.ios.zip3': 'เปิดโฟลเดอร์ เลือกรูป แล้วกดแชร์ และเลือก "บันทึกภาพ" (Save Image) เพื่อเก็บลงแอปรูปภาพ',
    'content.howToUse.android.title': 'Android',
    'content.howToUse.android.single1': 'เปิดหน้าคำสั่งซื้อด้วย Chrome แล้วกดปุ่ม View ที่รูปที่ต้องการ',
    'content.howToUse.android.single2': 'แตะค้างที่รูป แล้วเลือก "ดาวน์โหลดรูปภาพ" รูปจะอยู่ในแกลเลอรีหรือ Google Photos',
    'content.howToUse.android.zip1': 'หากดาวน์โหลดเป็นไฟล์ zip ให้เปิดแอป Files by Google (หรือแอปจัดการไฟล์ของเครื่อง) ไปที่ "ดาวน์โหลด"',
    'content.howToUse.android.zip2': 'แตะที่ไฟล์ zip แล้วกด "แตกไฟล์" (Extract)',
    'content.howToUse.android.zip3': 'รูปที่แตกไฟล์แล้วจะแสดงในแกลเลอรี หากไม่พบ ให้เปิดโฟลเดอร์ที่แตกไฟล์จากแอปจัดการไฟล์',
    'content.howToUse.computer.title': 'คอมพิวเตอร์ (Windows / Mac)',
    'content.howToUse.computer.step1': 'กดปุ่มดาวน์โหลดทั้งหมด ไฟล์ zip จะถูกบันทึกในโฟลเดอร์ดาวน์โหลด (Downloads)',
    'content.howToUse.computer.step2': 'Windows: คลิกขวาที่ไฟล์ zip แล้วเลือก "แตกไฟล์ทั้งหมด" (Extract All)',
    'content.howToUse.computer.step3': 'Mac: ดับเบิลคลิกที่ไฟล์ zip ระบบจะแตกไฟล์เป็นโฟลเดอร์ให้',
    'content.howToUse.computer.step4': 'ไฟล์รูปมีชื่อขึ้นต้นด้วยรหัสช่างภาพ ไฟล์ zip ที่มีคำว่า logo คือรูปพร้อมโลโก้',
    'content.howToUse.singleTitle': 'ดาวน์โหลดทีละรูป',
    'content.howToUse.zipTitle': 'ดาวน์โหลดทั้งหมด (ไฟล์ zip)',
    'content.howToUse.tipsTitle': 'ข้อควรรู้',
    'content.howToUse.tip1':
      'เบราว์เซอร์ในแอป เช่น LINE, Facebook หรือ Instagram ดาวน์โหลดไฟล์ zip ไม่ได้ กรุณาเปิดลิงก์หน้าคำสั่งซื้อด้วย Chrome หรือ Safari',
    'content.howToUse.tip2': 'หากเบราว์เซอร์บล็อกป๊อปอัป กรุณาอนุญาตป๊อปอัปสำหรับเว็บไซต์นี้',
    'content.howToUse.tip3': 'รูปจะถูกเก็บไว้ประมาณ 35 วันหลังวันจัดงาน กรุณาดาวน์โหลดและสำรองรูปไว้ภายในเวลานี้',
    'content.howToUse.tip4': 'หากทำลิงก์หน้าคำสั่งซื้อหาย ค้นหาได้ที่หน้า "ค้นหาคำสั่งซื้อ" ด้วยเบอร์มือถือที่ใช้สั่งซื้อ',
    'content.howToUse.help': 'ยังดาวน์โหลดไม่ได้? ติดต่อเราทาง LINE {line}',
  },
  {
    'content.howToOrder.title': 'How to order photos',
    'content.howToOrder.intro': 'Buy your race photos in 5 easy steps. No sign-up needed.',
    'content.howToOrder.step': 'Step {n}',
    'content.howToOrder.step1.title': 'Choose your event',
    'content.howToOrder.step1.text':
      'On the home page, pick the event you took part in, and accept the terms and policy on your first visit to the event.',
    'content.howToOrder.step2.title': 'Upload a selfie',
    'content.howToOrder.step2.text':
      'Upload a clear, front-facing photo of only your face (jpg or png, up to 5MB). Our AI finds the photos of you among all photos of the event.',
    'content.howToOrder.step3.title': 'Add photos to the cart',
    'content.howToOrder.step3.text':
      'Add the photos you want to the cart, or take the all-photos deal when the event offers it. Package prices are applied automatically. All photos in the cart must come from one event.',
    'content.howToOrder.step4.title': 'Pay by PromptPay or card',
    'content.howToOrder.step4.text':
      'In the cart, enter your mobile number (and e-mail if you like), then pay with a PromptPay QR code or a credit/debit card. The total includes a 5% payment processing fee.',
    'content.howToOrder.step5.title': 'Download your photos',
    'content.howToOrder.step5.text':
      'Once paid, the order page lets you download the originals, or the originals with a logo, one by one or all at once as a zip file. Keep the order page link, or find it later by your mobile number.',
    'content.howToOrder.goEvents': 'Choose an event',
    'content.howToOrder.goHowToUse': 'How to save photos',
    'content.howToOrder.goFindOrder': 'Find my order',
    'content.howToOrder.retention': 'Photos are kept for about 35 days after the event date. Please download them within that time.',

    'content.about.title': 'About Raceshot',
    'content.about.intro':
      'Raceshot is a marketplace for running and event photos that finds photos by face with AI. Instead of scrolling through tens of thousands of photos, runners upload one selfie and find their photos within seconds.',
    'content.about.missionTitle': 'Our mission',
    'content.about.mission':
      'We want every memory on the course to be easy to keep, and photographers to earn a fair return for their work.',
    'content.about.point1': 'Fast and accurate face search',
    'content.about.point2': 'Easy payment by PromptPay or card, no sign-up',
    'content.about.point3': 'High-resolution originals, with an optional logo version',
    'content.about.point4': 'Photographers upload and sell through the photographer site',
    'content.about.contactTitle': 'Contact us',
    'content.about.contactText': 'Questions about photos, orders or payment? Reach our team on any channel.',
    'content.about.line': 'LINE Official Account',
    'content.about.facebook': 'Facebook page',
    'content.about.email': 'E-mail',
    'content.about.photographerTitle': 'For photographers',
    'content.about.photographerText': 'Photographers who want to sell with us can sign up and upload on the photographer site.',
    'content.about.photographerLink': 'Go to the photographer site',

    'content.howToUse.title': 'How to save your downloaded photos',
    'content.howToUse.intro':
      'After payment, download your photos from the order page, one by one or all at once as a zip file. Here is how to save them on each kind of device.',
    'content.howToUse.ios.title': 'iPhone / iPad',
    'content.howToUse.ios.single1': 'Open the order page in Safari and tap View on the photo you want.',
    'content.howToUse.ios.single2': 'The photo opens in a new tab. Touch and hold it, then choose "Save to Photos".',
    'content.howToUse.ios.zip1': 'If you downloaded everything as a zip file, open the Files app and go to the Downloads folder.',
    'content.howToUse.ios.zip2': 'Tap the zip file: it is unpacked into a folder automatically.',
    'content.howToUse.ios.zip3': 'Open the folder, select the photos, tap Share and choose "Save Image" to keep them in Photos.',
    'content.howToUse.android.title': 'Android',
    'content.howToUse.android.single1': 'Open the order page in Chrome and tap View on the photo you want.',
    'content.howToUse.android.single2': 'Touch and hold the photo, then choose "Download image". It appears in your Gallery or Google Photos.',
    'content.howToUse.android.zip1': 'If you downloaded a zip file, open Files by Google (or your file manager) and go to Downloads.',
    'content.howToUse.android.zip2': 'Tap the zip file, then tap "Extract".',
    'content.howToUse.android.zip3': 'The extracted photos show in your Gallery. If not, open the extracted folder in the file manager.',
    'content.howToUse.computer.title': 'Computer (Windows / Mac)',
    'content.howToUse.computer.step1': 'Press the download-all button. The zip file is saved in your Downloads folder.',
    'content.howToUse.computer.step2': 'Windows: right-click the zip file and choose "Extract All".',
    'content.howToUse.computer.step3': 'Mac: double-click the zip file to unpack it into a folder.',
    'content.howToUse.computer.step4': 'Photo file names start with the photographer code; the zip with "logo" in its name holds the logo versions.',
    'content.howToUse.singleTitle': 'One photo at a time',
    'content.howToUse.zipTitle': 'All photos (zip file)',
    'content.howToUse.tipsTitle': 'Good to know',
    'content.howToUse.tip1':
      'In-app browsers such as LINE, Facebook or Instagram cannot download zip files. Please open the order page link in Chrome or Safari.',
    'content.howToUse.tip2': 'If your browser blocks pop-ups, please allow pop-ups for this site.',
    'content.howToUse.tip3': 'Photos are kept for about 35 days after the event date. Please download and back them up within that time.',
    'content.howToUse.tip4': 'Lost the order page link? Find it on the "Find order" page with the mobile number you ordered with.',
    'content.howToUse.help': 'Still cannot download? Contact us on LINE {line}.',
  },
);

// Loaded with the feature's chunk, not with the first script (see i18n/messages.ts).
addMessages(contentMessages);

/** Every key this feature's translator takes: the shared texts' and its own. */
export type ContentMessageKey = MessageKey | keyof typeof contentMessages.th;

/** The app's translator over this feature's texts: importing it from here brings them with it. */
export const useT = (): Translate<ContentMessageKey> => useTranslate<ContentMessageKey>();
