//! Texts of the console's sign-in page, Thai and English. Kept out of the shop's dictionary:
//! they load only with the console.

import { defineMessages } from '@/i18n/define';

export const authMessages = defineMessages(
  {
    'adminAuth.title': 'เข้าสู่ระบบคอนโซล',
    'adminAuth.email': 'อีเมล',
    'adminAuth.password': 'รหัสผ่าน',
    'adminAuth.submit': 'เข้าสู่ระบบ',
    'adminAuth.submitting': 'กำลังเข้าสู่ระบบ...',
    'adminAuth.retryAt': 'ลองใหม่ได้หลังเวลา {time} (อีกประมาณ {minutes} นาที)',
    'adminAuth.backToShop': 'กลับไปหน้าร้าน',
  },
  {
    'adminAuth.title': 'Sign in to the console',
    'adminAuth.email': 'E-mail',
    'adminAuth.password': 'Password',
    'adminAuth.submit': 'Sign in',
    'adminAuth.submitting': 'Signing in...',
    'adminAuth.retryAt': 'You can try again after {time} (in about {minutes} min).',
    'adminAuth.backToShop': 'Back to the shop',
  },
);
