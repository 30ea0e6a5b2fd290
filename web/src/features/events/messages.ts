//! Texts of the events feature (event page, wholesale page, face search), Thai and English.

import { defineMessages } from '@/i18n/define';
import { addMessages } from '@/i18n/messages';

export const eventsMessages = defineMessages(
  {
    'event.loading': 'กำลังโหลดอีเวนต์...',
    'event.coverAlt': 'ภาพปกอีเวนต์ {title}',
    'event.date': 'วันที่จัดงาน',
    'event.province': 'จังหวัด',
    'event.saleWindow': 'ช่วงเวลาขายรูป',
    'event.saleWindowValue': '{start} ถึง {end}',
    'event.packages': 'แพ็กเกจ',
    'event.packagePrice': '{name} {price} บาท',
    'event.daysLeft': 'เหลือเวลาขายรูปอีก {days} วัน รีบซื้อก่อนปิดการขาย!',
    'event.comeBack': 'ยังไม่เปิดขายรูป กรุณากลับมาอีกครั้งในวันที่ {date}',
    'event.endOfSale': 'ปิดการขายแล้ว (End of sale)',
    'event.wholesaleLink': 'ซื้อแบบเหมาทุกรูป (Wholesale)',
    'event.manualLink': 'ค้นหารูปเพิ่มเติมด้วยตนเอง',
    'event.manualHelp':
      'หากซื้อแบบเหมาทุกรูปแล้วและพบรูปของคุณเพิ่มเติม ให้ค้นหาด้วยตนเองแล้วส่งคำขอ รูปที่เพิ่มหลังการซื้อเหมาต้องได้รับการอนุมัติจากแอดมิน ติดต่อทาง LINE {line}',
    'event.highlight': 'ตัวอย่างรูปในอีเวนต์',
    'event.highlightEmpty': 'ยังไม่มีตัวอย่างรูป',
    'event.photoAlt': 'รูปที่ {id}',
    'event.openPhoto': 'ดูรูปที่ {id} แบบขยาย',

    'event.consent.title': 'ข้อกำหนดและนโยบาย',
    'event.consent.text':
      'ก่อนค้นหารูป กรุณาอ่านและยอมรับข้อกำหนดการใช้งาน (รวมถึงการคุ้มครองข้อมูลส่วนบุคคลตาม พ.ร.บ. คุ้มครองข้อมูลส่วนบุคคล พ.ศ. 2562) และนโยบายการคืนเงิน รูปใบหน้าที่คุณอัปโหลดใช้เพื่อค้นหารูปเท่านั้นและจะถูกลบหลังการค้นหา',
    'event.consent.terms': 'ข้อกำหนดการใช้งาน',
    'event.consent.refund': 'นโยบายการคืนเงิน',
    'event.consent.accept': 'ยอมรับ',
    'event.consent.decline': 'ไม่ยอมรับ',

    'event.upload.title': 'ค้นหารูปของคุณด้วยใบหน้า',
    'event.upload.help': 'อัปโหลดรูปเซลฟีที่เห็นใบหน้าชัดเจนเพียงคนเดียว (jpg หรือ png ไม่เกิน 5MB)',
    'event.upload.choose': 'เลือกรูปใบหน้า',
    'event.upload.uploading': 'กำลังอัปโหลด {percent}%',
    'event.upload.searching': 'กำลังค้นหารูปของคุณ...',
    'event.upload.wrongType.title': 'ไฟล์ไม่ถูกต้อง',
    'event.upload.wrongType': 'กรุณาใช้ไฟล์ jpg หรือ png เท่านั้น',
    'event.upload.tooLarge.title': 'ไฟล์ใหญ่เกินไป',
    'event.upload.tooLarge': 'ไฟล์มีขนาดใหญ่กว่า 5MB',
    'event.upload.clearCart.title': 'ค้นหาใหม่',
    'event.upload.clearCart':
      'รูปในตะกร้าจะถูกลบทั้งหมดเมื่อเริ่มค้นหาใหม่ ต้องการดำเนินการต่อหรือไม่?',
    'event.upload.clearCart.ok': 'ลบและค้นหา',

    'event.search.error': 'อัปโหลดหรือค้นหาผิดพลาด กรุณาลองใหม่',
    'event.search.failed': 'การค้นหาผิดพลาด กรุณาลองใหม่',
    'event.search.found': 'พบ {count} รูป',
    'event.search.notFound': 'ไม่พบรูปของคุณ',
    'event.search.noFace': 'ไม่พบใบหน้าในรูปที่อัปโหลด',
    'event.search.notFoundHelp':
      'กรุณาลองใช้รูปอื่นที่เห็นใบหน้าชัดเจนเพียงคนเดียว หรือติดต่อแอดมินทาง LINE {line}',
    'event.results': 'ผลการค้นหา',

    'event.cart.add': 'ใส่ตะกร้า',
    'event.cart.remove': 'นำออก',
    'event.cart.added': 'เพิ่มลงตะกร้าแล้ว',
    'event.cart.removed': 'นำออกจากตะกร้าแล้ว',
    'event.cart.link': 'ไปที่ตะกร้า ({count} รูป)',
    'event.download': 'ดาวน์โหลด',
    'event.notMe': 'ไม่ใช่ฉัน',
    'event.notMe.label': 'ไม่ใช่ฉัน — รูปที่ {id}',
    'event.notMe.done': 'นำออกจากผลการค้นหาแล้ว',

    'event.deal.default': 'ซื้อทุกรูป',
    'event.deal.avg': 'เฉลี่ยรูปละ {price} บาท',
    'event.deal.none.title': 'ยังไม่มีรูปจากการค้นหา',
    'event.deal.none':
      'กรุณาอัปโหลดรูปใบหน้าเพื่อค้นหารูปของคุณก่อน แล้วจึงกดซื้อทุกรูป',

    'event.bulk.button': 'ดาวน์โหลดทุกรูป',
    'event.bulk.title': 'ดาวน์โหลดทุกรูป ({count} รูป)',
    'event.bulk.text':
      'กรุณาอนุญาตป๊อปอัป (pop-ups) สำหรับเว็บไซต์นี้ แนะนำให้ใช้คอมพิวเตอร์หรือ Android สำหรับ iOS ระบบจะเปิดแท็บใหม่หนึ่งแท็บต่อหนึ่งรูป ให้กดค้างที่รูปแล้วเลือกบันทึก',
    'event.bulk.ok': 'ดาวน์โหลด',

    'event.wholesale.title': 'ซื้อแบบเหมาทุกรูป',
    'event.wholesale.notSupported': 'อีเวนต์นี้ไม่รองรับการซื้อแบบเหมาทุกรูป',
    'event.wholesale.back': 'กลับไปหน้าอีเวนต์',
    'event.wholesale.pricing': 'กลับไปดูราคาแพ็กเกจ',
    'event.wholesale.help':
      'ค้นหารูปของคุณด้วยใบหน้า แล้วกดซื้อทุกรูปเพื่อซื้อรูปที่พบทั้งหมดในราคาเหมา',
  },
  {
    'event.loading': 'Loading event...',
    'event.coverAlt': 'Cover of {title}',
    'event.date': 'Event date',
    'event.province': 'Province',
    'event.saleWindow': 'Photo sale period',
    'event.saleWindowValue': '{start} to {end}',
    'event.packages': 'Packages',
    'event.packagePrice': '{name} {price} THB',
    'event.daysLeft': 'Only {days} days left to buy photos. Hurry before the sale ends!',
    'event.comeBack': 'Photos are not on sale yet. Please come back on {date}.',
    'event.endOfSale': 'End of sale',
    'event.wholesaleLink': 'Buy all photos (wholesale)',
    'event.manualLink': 'Search more photos manually',
    'event.manualHelp':
      'If you bought all your photos and then find more of yourself, search for them manually and send a request: extra photos after an all-photos purchase need an admin’s approval. Contact us on LINE {line}.',
    'event.highlight': 'Photos from this event',
    'event.highlightEmpty': 'No sample photos yet.',
    'event.photoAlt': 'Photo {id}',
    'event.openPhoto': 'Open photo {id} full size',

    'event.consent.title': 'Terms and policy',
    'event.consent.text':
      'Before searching, please read and accept the Terms of use (including personal data protection under the Thai Personal Data Protection Act 2019) and the Refund policy. The face photo you upload is used only for the search and is deleted afterwards.',
    'event.consent.terms': 'Terms of use',
    'event.consent.refund': 'Refund policy',
    'event.consent.accept': 'Accept',
    'event.consent.decline': 'Decline',

    'event.upload.title': 'Find your photos by your face',
    'event.upload.help': 'Upload a selfie showing one clear face (jpg or png, at most 5MB).',
    'event.upload.choose': 'Choose a face photo',
    'event.upload.uploading': 'Uploading {percent}%',
    'event.upload.searching': 'Searching for your photos...',
    'event.upload.wrongType.title': 'Wrong file type',
    'event.upload.wrongType': 'Please use a jpg or png file only.',
    'event.upload.tooLarge.title': 'File too large',
    'event.upload.tooLarge': 'The file is larger than 5MB.',
    'event.upload.clearCart.title': 'New search',
    'event.upload.clearCart': 'All photos in your cart will be deleted when a new search starts. Continue?',
    'event.upload.clearCart.ok': 'Delete and search',

    'event.search.error': 'Error from upload or search, please retry.',
    'event.search.failed': 'Error from search, try again.',
    'event.search.found': '{count} photos found',
    'event.search.notFound': 'No photos of you were found.',
    'event.search.noFace': 'No face was found in the uploaded photo.',
    'event.search.notFoundHelp':
      'Please try another photo showing one clear face, or contact an admin on LINE {line}.',
    'event.results': 'Search results',

    'event.cart.add': 'Add to cart',
    'event.cart.remove': 'Remove',
    'event.cart.added': 'Added to cart',
    'event.cart.removed': 'Removed from cart',
    'event.cart.link': 'Go to cart ({count} photos)',
    'event.download': 'Download',
    'event.notMe': 'Not me',
    'event.notMe.label': 'Not me — photo {id}',
    'event.notMe.done': 'Removed from your results',

    'event.deal.default': 'Buy all photos',
    'event.deal.avg': 'Average {price} THB per photo',
    'event.deal.none.title': 'No photos found yet',
    'event.deal.none': 'Please upload a face photo to find your photos first, then buy them all.',

    'event.bulk.button': 'Download all photos',
    'event.bulk.title': 'Download all photos ({count} photos)',
    'event.bulk.text':
      'Please allow pop-ups for this site. A computer or an Android phone works best. On iOS one tab opens per photo: long-press the photo and choose to save it.',
    'event.bulk.ok': 'Download',

    'event.wholesale.title': 'Buy all photos (wholesale)',
    'event.wholesale.notSupported': 'This event does not support the all-photos deal.',
    'event.wholesale.back': 'Back to the event',
    'event.wholesale.pricing': 'Back to package pricing',
    'event.wholesale.help': 'Find your photos by your face, then buy all the photos found at the wholesale price.',
  },
);

// Loaded with the feature's chunk, not with the first script (see i18n/messages.ts).
addMessages(eventsMessages);

/** The app's translator: importing it from here brings this feature's texts with it. */
export { useT } from '@/i18n';
