//! Content pages: the five-step guide, the contact channels, the download help, and the
//! legal texts following the visitor's language.

import { act, screen, within } from '@testing-library/react';
import { CONTACT } from '@/lib/constants';
import { STORAGE_KEYS, writeRaw } from '@/lib/storage';
import { renderWithProviders } from '@/test/render';
import { AboutPage } from './AboutPage';
import { HowToOrderPage } from './HowToOrderPage';
import { HowToUsePage } from './HowToUsePage';
import { RefundPolicyPage, TermsOfUsePage } from './LegalPages';

describe('HowToOrderPage', () => {
  it('shows the five steps in order, in Thai by default', () => {
    renderWithProviders(<HowToOrderPage />);
    const steps = within(screen.getByTestId('how-to-order-steps')).getAllByRole('heading');
    expect(steps.map((h) => h.textContent)).toEqual([
      'เลือกอีเวนต์',
      'อัปโหลดรูปเซลฟี่',
      'เลือกรูปใส่ตะกร้า',
      'ชำระเงินด้วยพร้อมเพย์หรือบัตร',
      'ดาวน์โหลดรูป',
    ]);
    expect(screen.getByRole('link', { name: 'เลือกอีเวนต์' })).toHaveAttribute('href', '/');
  });

  it('speaks English when chosen', () => {
    localStorage.setItem('currentLanguage', 'en');
    renderWithProviders(<HowToOrderPage />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('How to order photos');
    expect(screen.getByText(/Pay by PromptPay or card/)).toBeInTheDocument();
    expect(screen.getByText(/originals with a logo/)).toBeInTheDocument();
  });
});

describe('AboutPage', () => {
  it('lists the LINE, Facebook and e-mail contacts', () => {
    renderWithProviders(<AboutPage />);
    const contact = screen.getByTestId('about-contact');
    expect(within(contact).getByRole('link', { name: CONTACT.line })).toHaveAttribute('href', CONTACT.lineUrl);
    expect(within(contact).getByRole('link', { name: /facebook\.com/ })).toHaveAttribute('href', CONTACT.facebook);
    expect(within(contact).getByRole('link', { name: CONTACT.email })).toHaveAttribute(
      'href',
      `mailto:${CONTACT.email}`,
    );
    expect(screen.getByRole('heading', { name: 'พันธกิจของเรา' })).toBeInTheDocument();
  });
});

describe('HowToUsePage', () => {
  it('explains iPhone/iPad, Android and computer', () => {
    localStorage.setItem('currentLanguage', 'en');
    renderWithProviders(<HowToUsePage />);
    for (const name of ['iPhone / iPad', 'Android', 'Computer (Windows / Mac)']) {
      expect(screen.getByRole('heading', { level: 2, name })).toBeInTheDocument();
    }
    expect(screen.getByText(/Extract All/)).toBeInTheDocument();
  });
});

describe('legal pages', () => {
  it('shows the Thai terms by default, with the PDPA and the 35-day retention', () => {
    renderWithProviders(<TermsOfUsePage />);
    const page = screen.getByTestId('terms-of-use');
    expect(within(page).getByRole('heading', { level: 1 })).toHaveTextContent(
      'ข้อกำหนดการใช้งานและนโยบายความเป็นส่วนตัว',
    );
    expect(page).toHaveTextContent('พระราชบัญญัติคุ้มครองข้อมูลส่วนบุคคล พ.ศ. 2562');
    expect(page).toHaveTextContent('ประมาณ 35 วันหลังวันจัดงาน');
    expect(page).toHaveTextContent('ไม่ได้เป็นคู่กรณีในข้อพิพาทระหว่างผู้ซื้อและผู้ขาย');
    expect(page).toHaveTextContent('จะถูกลบภายใน 75 วินาที');
  });

  it('shows the English terms when the language is English', () => {
    localStorage.setItem('currentLanguage', 'en');
    renderWithProviders(<TermsOfUsePage />);
    const page = screen.getByTestId('terms-of-use');
    expect(within(page).getByRole('heading', { level: 1 })).toHaveTextContent('Terms of Use and Privacy Policy');
    expect(page).toHaveTextContent('Personal Data Protection Act B.E. 2562 (2019)');
    expect(page).toHaveTextContent('kept until you ask for it to be changed or cancelled');
    expect(page).toHaveTextContent('not a party to disputes between a buyer and a seller');
    expect(page).toHaveTextContent('never searched with is deleted within 75 seconds');
    expect(page).not.toHaveTextContent('ข้อกำหนดการใช้งาน');
  });

  it('switches the refund policy when the visitor changes language', () => {
    renderWithProviders(<RefundPolicyPage />);
    const page = screen.getByTestId('refund-policy');
    expect(within(page).getByRole('heading', { level: 1 })).toHaveTextContent('นโยบายการคืนเงิน');
    expect(page).toHaveTextContent('ความผิดพลาดของระบบ');
    expect(page).toHaveTextContent('ไม่ชัดเจนหรือเบลอ');

    act(() => writeRaw(STORAGE_KEYS.language, 'en'));
    expect(within(page).getByRole('heading', { level: 1 })).toHaveTextContent('Refund Policy');
    expect(page).toHaveTextContent('because of a system fault');
    expect(page).toHaveTextContent('unclear or blurred');
    expect(page).not.toHaveTextContent('นโยบายการคืนเงิน');
  });
});
