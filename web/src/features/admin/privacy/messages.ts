//! Texts of the console's privacy requests page (Thai first, then English). They stay out of
//! the shop's dictionary and load with the page.

import { defineMessages } from '@/i18n/define';

export const privacyMessages = defineMessages(
  {
    'adminPrivacy.title': 'คำขอซ่อนรูป',
    'adminPrivacy.help':
      'ผู้ที่ไม่ต้องการให้รูปของตนแสดง (คัดค้านตาม พ.ร.บ. คุ้มครองข้อมูลส่วนบุคคล) ส่งรูปเซลฟีมา ระบบลบรูปเซลฟีทันทีและเก็บเพียงข้อมูลใบหน้า อนุมัติแล้วรูปที่เห็นใบหน้านั้นจะถูกซ่อนจากร้าน รวมถึงรูปที่เพิ่มภายหลัง ไม่อนุมัติแล้วข้อมูลใบหน้าจะถูกลบ ผู้ขอจะได้รับแจ้งผลทาง SMS หรืออีเมล',
    'adminPrivacy.state': 'สถานะ',
    'adminPrivacy.state.pending': 'รอพิจารณา',
    'adminPrivacy.state.approved': 'อนุมัติแล้ว',
    'adminPrivacy.state.rejected': 'ไม่อนุมัติ',
    'adminPrivacy.empty': 'ไม่มีคำขอในสถานะนี้',
    'adminPrivacy.requestId': 'หมายเลขคำขอ',
    'adminPrivacy.event': 'อีเวนต์',
    'adminPrivacy.contact': 'ช่องทางติดต่อ',
    'adminPrivacy.createdAt': 'ส่งคำขอเมื่อ',
    'adminPrivacy.decidedAt': 'พิจารณาเมื่อ',
    'adminPrivacy.decidedBy': 'พิจารณาโดย',
    'adminPrivacy.notified': 'แจ้งผู้ขอแล้ว',
    'adminPrivacy.yes': 'แจ้งแล้ว',
    'adminPrivacy.no': 'ยังไม่ได้แจ้ง',
    'adminPrivacy.photos.pending': 'รูปที่จะถูกซ่อน ({count} รูป)',
    'adminPrivacy.photos.approved': 'รูปที่ซ่อนอยู่ ({count} รูป)',
    'adminPrivacy.photos.none': 'ไม่พบรูปที่เห็นใบหน้านี้',
    'adminPrivacy.photoAlt': 'รูปที่ {id}',
    'adminPrivacy.similarity': 'ความคล้าย {percent}%',
    'adminPrivacy.approve': 'อนุมัติและซ่อนรูป',
    'adminPrivacy.reject': 'ไม่อนุมัติ',
    'adminPrivacy.approve.title': 'อนุมัติคำขอซ่อนรูป',
    'adminPrivacy.approve.text':
      'รูป {count} รูปของ {event} จะถูกซ่อนจากร้านทันที และรูปที่เพิ่มภายหลังที่เห็นใบหน้านี้จะถูกซ่อนด้วย ผู้ขอ ({contact}) จะได้รับแจ้ง ดำเนินการต่อหรือไม่?',
    'adminPrivacy.approve.ok': 'อนุมัติ',
    'adminPrivacy.approve.done': 'อนุมัติแล้ว ซ่อน {count} รูป',
    'adminPrivacy.reject.title': 'ไม่อนุมัติคำขอซ่อนรูป',
    'adminPrivacy.reject.text':
      'ข้อมูลใบหน้าของคำขอนี้จะถูกลบ และรูปของ {event} จะไม่ถูกซ่อน ผู้ขอ ({contact}) จะได้รับแจ้ง ดำเนินการต่อหรือไม่?',
    'adminPrivacy.reject.ok': 'ไม่อนุมัติ',
    'adminPrivacy.reject.done': 'ไม่อนุมัติคำขอแล้ว',
  },
  {
    'adminPrivacy.title': 'Privacy requests',
    'adminPrivacy.help':
      'People who do not want their photos shown (an objection under the Thai PDPA) send a selfie. It is deleted at once; only a face template is kept. Approving hides the photos showing that face from the shop, including photos added later; rejecting deletes the template. The requester is told by SMS or e-mail.',
    'adminPrivacy.state': 'State',
    'adminPrivacy.state.pending': 'Pending',
    'adminPrivacy.state.approved': 'Approved',
    'adminPrivacy.state.rejected': 'Rejected',
    'adminPrivacy.empty': 'No requests in this state.',
    'adminPrivacy.requestId': 'Request',
    'adminPrivacy.event': 'Event',
    'adminPrivacy.contact': 'Contact',
    'adminPrivacy.createdAt': 'Requested',
    'adminPrivacy.decidedAt': 'Decided',
    'adminPrivacy.decidedBy': 'Decided by',
    'adminPrivacy.notified': 'Requester told',
    'adminPrivacy.yes': 'Yes',
    'adminPrivacy.no': 'Not yet',
    'adminPrivacy.photos.pending': 'Photos to hide ({count})',
    'adminPrivacy.photos.approved': 'Photos hidden ({count})',
    'adminPrivacy.photos.none': 'No photo shows this face.',
    'adminPrivacy.photoAlt': 'Photo {id}',
    'adminPrivacy.similarity': 'Similarity {percent}%',
    'adminPrivacy.approve': 'Approve and hide',
    'adminPrivacy.reject': 'Reject',
    'adminPrivacy.approve.title': 'Approve the privacy request',
    'adminPrivacy.approve.text':
      '{count} photos of {event} will be hidden from the shop at once, and photos showing this face added later will be hidden too. The requester ({contact}) will be told. Continue?',
    'adminPrivacy.approve.ok': 'Approve',
    'adminPrivacy.approve.done': 'Approved: {count} photos hidden',
    'adminPrivacy.reject.title': 'Reject the privacy request',
    'adminPrivacy.reject.text':
      'The face template of this request will be deleted and no photo of {event} will be hidden. The requester ({contact}) will be told. Continue?',
    'adminPrivacy.reject.ok': 'Reject',
    'adminPrivacy.reject.done': 'Request rejected',
  },
);
