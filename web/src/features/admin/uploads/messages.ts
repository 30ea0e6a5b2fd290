//! Texts of the console's upload tokens page, Thai and English. Kept out of the shop's
//! dictionary: they load only with the console.

import { defineMessages } from '@/i18n/define';

export const uploadMessages = defineMessages(
  {
    'adminUploads.title': 'โทเค็นอัปโหลด',
    'adminUploads.intro':
      'ใช้คู่กับอีเมลของบัญชีเพื่อส่งรูปจากกล้อง (FTP) หรือโปรแกรมอัปโหลดของช่างภาพ ใช้ได้เฉพาะอีเวนต์ที่บัญชีนั้นมีสิทธิ์',
    'adminUploads.label': 'ชื่อเรียก (เช่น กล้อง Nikon Z6)',
    'adminUploads.account': 'อีเมลของบัญชี (เว้นว่าง = บัญชีของคุณ)',
    'adminUploads.create': 'สร้างโทเค็น',
    'adminUploads.secretTitle': 'โทเค็นใหม่ — คัดลอกเก็บไว้ตอนนี้',
    'adminUploads.secretHelp': 'โทเค็นนี้จะแสดงเพียงครั้งเดียว ระบบเก็บไว้เฉพาะค่าแฮช',
    'adminUploads.list': 'โทเค็นทั้งหมด',
    'adminUploads.empty': 'ยังไม่มีโทเค็น',
    'adminUploads.col.label': 'ชื่อเรียก',
    'adminUploads.col.account': 'บัญชี',
    'adminUploads.col.hint': 'ลงท้ายด้วย',
    'adminUploads.col.created': 'สร้างเมื่อ',
    'adminUploads.col.lastUsed': 'ใช้ล่าสุด',
    'adminUploads.col.state': 'สถานะ',
    'adminUploads.never': 'ยังไม่เคยใช้',
    'adminUploads.live': 'ใช้งานได้',
    'adminUploads.revoked': 'ยกเลิกแล้ว {when}',
    'adminUploads.revoke': 'ยกเลิก',
    'adminUploads.revoke.title': 'ยกเลิกโทเค็น',
    'adminUploads.revoke.text': 'กล้องหรือโปรแกรมที่ใช้ “{label}” จะส่งรูปไม่ได้อีก',
    'adminUploads.revoke.done': 'ยกเลิกโทเค็นแล้ว',
    'adminUploads.labelRequired': 'กรอกชื่อเรียก 1–{max} ตัวอักษร',
  },
  {
    'adminUploads.title': 'Upload tokens',
    'adminUploads.intro':
      "Used with the account's e-mail to send photos from a camera (FTP) or the photographer's uploader, to the events that account may work on.",
    'adminUploads.label': 'Label (e.g. Nikon Z6)',
    'adminUploads.account': "Account's e-mail (empty: your own)",
    'adminUploads.create': 'Make a token',
    'adminUploads.secretTitle': 'New token — copy it now',
    'adminUploads.secretHelp': 'It is shown only this once; the shop keeps only its hash.',
    'adminUploads.list': 'All tokens',
    'adminUploads.empty': 'No tokens yet',
    'adminUploads.col.label': 'Label',
    'adminUploads.col.account': 'Account',
    'adminUploads.col.hint': 'Ends with',
    'adminUploads.col.created': 'Made',
    'adminUploads.col.lastUsed': 'Last used',
    'adminUploads.col.state': 'State',
    'adminUploads.never': 'Never',
    'adminUploads.live': 'Live',
    'adminUploads.revoked': 'Revoked {when}',
    'adminUploads.revoke': 'Revoke',
    'adminUploads.revoke.title': 'Revoke the token',
    'adminUploads.revoke.text': 'Cameras and uploaders using “{label}” can no longer send photos.',
    'adminUploads.revoke.done': 'Token revoked',
    'adminUploads.labelRequired': 'A label of 1 to {max} characters',
  },
);
