//! Texts of the console's audit log, Thai and English. Kept out of the shop's dictionary:
//! they load only with the console.

import { defineMessages } from '@/i18n/define';

export const auditMessages = defineMessages(
  {
    'adminAudit.title': 'บันทึกการใช้งาน',
    'adminAudit.intro': 'ใครทำอะไร กับอะไร และเมื่อไร (ล่าสุดก่อน)',
    'adminAudit.when': 'เวลา',
    'adminAudit.who': 'ผู้ทำรายการ',
    'adminAudit.what': 'การกระทำ',
    'adminAudit.target': 'เป้าหมาย',
    'adminAudit.detail': 'รายละเอียด',
    'adminAudit.showDetail': 'ดูรายละเอียด',
    'adminAudit.noDetail': '—',
    'adminAudit.empty': 'ไม่มีรายการ',
    'adminAudit.newest': 'ล่าสุด',
    'adminAudit.newer': 'ใหม่กว่า',
    'adminAudit.older': 'เก่ากว่า',
    'adminAudit.paging': 'เลื่อนดูบันทึก',
    'adminAudit.unknownAddress': 'อีเมลที่ไม่มีบัญชี',
  },
  {
    'adminAudit.title': 'Audit log',
    'adminAudit.intro': 'Who did what, to what, and when (newest first).',
    'adminAudit.when': 'When',
    'adminAudit.who': 'Who',
    'adminAudit.what': 'Action',
    'adminAudit.target': 'Target',
    'adminAudit.detail': 'Detail',
    'adminAudit.showDetail': 'Show detail',
    'adminAudit.noDetail': '—',
    'adminAudit.empty': 'No entries',
    'adminAudit.newest': 'Newest',
    'adminAudit.newer': 'Newer',
    'adminAudit.older': 'Older',
    'adminAudit.paging': 'Browse the log',
    'adminAudit.unknownAddress': 'An address without an account',
  },
);
