//! Texts of the console's finisher certificates, Thai and English. Kept out of the shop's
//! dictionary: they load only with the console.

import { defineMessages } from '@/i18n/define';

export const certificatesMessages = defineMessages(
  {
    'adminCertificates.title': 'ใบประกาศนียบัตรผู้พิชิต',
    'adminCertificates.intro':
      'นักวิ่งที่มีผลการแข่งขันดาวน์โหลดใบประกาศนียบัตรพร้อมชื่อ เวลา อันดับ และรูปของตนได้ ทั้งรูป 1080 × 1350 สำหรับโซเชียล และ PDF ขนาด A4',
    'adminCertificates.offered': 'เปิดให้ดาวน์โหลดใบประกาศนียบัตร',
    'adminCertificates.price': 'ราคา (บาท, 0 = ฟรี)',
    'adminCertificates.priced':
      'ใบประกาศนียบัตรที่มีราคาขายผ่านตะกร้า: นักวิ่งกดใส่ตะกร้าจากผลการแข่งขันของตน และดาวน์โหลดได้จากหน้าคำสั่งซื้อเมื่อชำระเงินแล้ว',
    'adminCertificates.save': 'บันทึก',
    'adminCertificates.saved': 'บันทึกการตั้งค่าใบประกาศนียบัตรแล้ว',
    'adminCertificates.format.image': 'รูปสำหรับโซเชียล (1080 × 1350)',
    'adminCertificates.format.print': 'PDF ขนาด A4 (595 × 842 พอยต์)',
    'adminCertificates.custom': 'ใช้แม่แบบของงานนี้',
    'adminCertificates.shops': 'ใช้แม่แบบของร้าน',
    'adminCertificates.upload': 'อัปโหลดแม่แบบ SVG',
    'adminCertificates.uploaded': 'บันทึกแม่แบบแล้ว',
    'adminCertificates.reset': 'กลับไปใช้แม่แบบของร้าน',
    'adminCertificates.sample': 'ดูตัวอย่าง',
    'adminCertificates.download': 'ดาวน์โหลดแม่แบบที่ใช้อยู่',
    'adminCertificates.fields': 'ช่องข้อมูลที่ใช้ในแม่แบบได้: {fields} และรูป href="raceshot:photo", href="raceshot:logo"',
  },
  {
    'adminCertificates.title': 'Finisher certificates',
    'adminCertificates.intro':
      'Runners with a result download a certificate with their name, time, rank and photo: a 1080 × 1350 picture for social media and an A4 PDF.',
    'adminCertificates.offered': 'Offer certificates',
    'adminCertificates.price': 'Price (baht, 0 = free)',
    'adminCertificates.priced':
      'A priced certificate is sold in the cart: runners add it from their result, and download it from their order’s page once paid.',
    'adminCertificates.save': 'Save',
    'adminCertificates.saved': 'Certificate settings saved',
    'adminCertificates.format.image': 'Picture for social media (1080 × 1350)',
    'adminCertificates.format.print': 'A4 PDF (595 × 842 points)',
    'adminCertificates.custom': 'This event’s own template',
    'adminCertificates.shops': 'The shop’s template',
    'adminCertificates.upload': 'Upload an SVG template',
    'adminCertificates.uploaded': 'Template saved',
    'adminCertificates.reset': 'Back to the shop’s template',
    'adminCertificates.sample': 'See a sample',
    'adminCertificates.download': 'Download the template in use',
    'adminCertificates.fields': 'Fields a template may use: {fields}, and the pictures href="raceshot:photo", href="raceshot:logo"',
  },
);
