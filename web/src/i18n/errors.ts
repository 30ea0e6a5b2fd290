//! What the visitor reads for each error code the API can answer (the server never sends
//! UI text). The compiler holds this table to the codes in openapi.json. Kept out of the
//! first script: only the pages that can show a failure import it.

import { useCallback } from 'react';
import { ApiFailure, type ErrorCode } from '@/api/client';
import type { Language } from './define';
import { useLanguage } from './index';

type ErrorTexts = Record<ErrorCode | 'network', string>;

const th: ErrorTexts = {
  malformed_json: 'ข้อมูลที่ส่งไม่ถูกต้อง กรุณาลองใหม่',
  invalid_field: 'ข้อมูลบางช่องไม่ถูกต้อง กรุณาตรวจสอบ',
  invalid_client_token: 'เกิดข้อผิดพลาด กรุณาแจ้งผู้ดูแลระบบ',
  event_not_found: 'ไม่พบอีเวนต์นี้',
  event_not_on_sale: 'อีเวนต์นี้ไม่ได้เปิดขายในขณะนี้',
  upload_not_found: 'ไม่พบไฟล์ที่อัปโหลด กรุณาอัปโหลดใหม่',
  invalid_signature: 'ลิงก์ไม่ถูกต้อง',
  file_too_large: 'ไฟล์มีขนาดใหญ่กว่า 5MB',
  unsupported_image_type: 'กรุณาใช้ไฟล์ jpg หรือ png เท่านั้น',
  unreadable_image: 'ไม่สามารถอ่านรูปภาพนี้ได้ กรุณาใช้รูปอื่น',
  image_too_many_pixels: 'รูปภาพมีความละเอียดสูงเกินไป กรุณาใช้รูปอื่น',
  malformed_multipart: 'การอัปโหลดไม่สมบูรณ์ กรุณาลองใหม่',
  image_not_found: 'มีรูปที่ไม่มีในระบบแล้ว กรุณาลบออกจากตะกร้า',
  invalid_bib: 'หมายเลขบิบไม่ถูกต้อง กรุณากรอกเฉพาะตัวเลขบนบิบของคุณ',
  too_many_selfies: 'ค้นหาพร้อมกันได้สูงสุด 3 คน กรุณาลบรูปใบหน้าออกบางรูป',
  no_face: 'ไม่พบใบหน้าในรูปที่อัปโหลด กรุณาใช้รูปที่เห็นใบหน้าชัดเจนเพียงคนเดียว',
  selfie_many_faces: 'รูปนี้มีหลายคน กรุณาใช้รูปเซลฟีที่เห็นใบหน้าของคุณเพียงคนเดียว',
  privacy_request_exists: 'มีคำขอซ่อนรูปของใบหน้านี้ในอีเวนต์นี้อยู่แล้ว ไม่ต้องส่งซ้ำ',
  privacy_request_decided: 'คำขอนี้ได้รับการพิจารณาไปแล้ว',
  privacy_hold: 'รูปนี้ถูกซ่อนตามคำขอซ่อนรูปที่อนุมัติแล้ว จึงแสดงอีกไม่ได้',
  mixed_events: 'กรุณาเลือกรูปจากอีเวนต์เดียวเท่านั้น',
  deal_not_available: 'อีเวนต์นี้ไม่มีแพ็กเกจซื้อทุกรูป',
  deal_needs_search: 'ราคาเหมาใช้กับรูปที่คุณค้นหาเจอเท่านั้น กรุณาค้นหารูปของคุณอีกครั้ง',
  wholesale_not_available: 'อีเวนต์นี้ไม่รองรับการซื้อแบบเหมา',
  order_not_found: 'ไม่พบคำสั่งซื้อ',
  access_code_invalid: 'รหัสไม่ถูกต้อง กรุณาตรวจสอบแล้วลองใหม่',
  access_code_expired: 'รหัสหมดอายุหรือกรอกผิดหลายครั้งเกินไป กรุณาขอรหัสใหม่',
  access_code_undeliverable:
    'คำสั่งซื้อนี้ไม่มีเบอร์มือถือหรืออีเมลสำหรับรับรหัส เปิดได้จากลิงก์ของคำสั่งซื้อ หรือติดต่อร้านค้าเท่านั้น',
  line_unavailable: 'ร้านนี้ยังไม่เปิดให้ส่งคำสั่งซื้อไปที่ LINE',
  amount_mismatch: 'ราคามีการเปลี่ยนแปลง กรุณาตรวจสอบยอดอีกครั้ง',
  payment_gateway_changed: 'ช่องทางชำระเงินมีการเปลี่ยนแปลง กรุณาโหลดหน้าใหม่',
  payment_channel_not_available: 'ช่องทางชำระเงินนี้ยังไม่พร้อมใช้งาน',
  approval_not_available: 'ขอรูปเพิ่มได้เฉพาะเบอร์มือถือที่เคยซื้อแบบเหมาทุกรูปของอีเวนต์นี้และชำระเงินแล้ว',
  order_not_payable: 'คำสั่งซื้อนี้ไม่อยู่ในสถานะรอชำระเงิน',
  payment_declined: 'การชำระเงินถูกปฏิเสธ กรุณาใช้บัตรอื่น',
  payment_gateway_error: 'ระบบชำระเงินขัดข้อง กรุณาลองใหม่',
  payment_gateway_timeout: 'ระบบชำระเงินไม่ตอบสนอง กรุณาลองใหม่',
  order_not_paid: 'คำสั่งซื้อนี้ยังไม่ได้ชำระเงิน',
  download_link_expired: 'ลิงก์ดาวน์โหลดหมดอายุ กรุณาโหลดหน้าใหม่',
  storage_expired: 'หมดระยะเวลาการจัดเก็บรูปภาพแล้ว',
  logo_images_not_ready: 'รูปพร้อมโลโก้ยังไม่พร้อม กรุณารอสักครู่',
  not_signed_in: 'กรุณาเข้าสู่ระบบ',
  invalid_credentials: 'อีเมลหรือรหัสผ่านไม่ถูกต้อง',
  account_locked: 'เข้าสู่ระบบผิดหลายครั้ง บัญชีถูกล็อกชั่วคราว กรุณาลองใหม่ภายหลัง',
  forbidden: 'บัญชีนี้ไม่มีสิทธิ์ทำรายการนี้',
  photo_sold: 'รูปนี้อยู่ในคำสั่งซื้อแล้ว ลบไม่ได้ ซ่อนรูปแทนได้',
  not_found: 'ไม่พบข้อมูล',
  method_not_allowed: 'เกิดข้อผิดพลาด กรุณาลองใหม่',
  payload_too_large: 'ข้อมูลมีขนาดใหญ่เกินไป',
  upload_offset_conflict: 'การอัปโหลดไม่ต่อเนื่อง กำลังส่งต่อจากจุดที่ค้างไว้',
  upload_expired: 'การอัปโหลดหมดอายุแล้ว กรุณาอัปโหลดใหม่',
  tus_version_unsupported: 'โปรแกรมอัปโหลดไม่รองรับ กรุณาอัปเดต',
  unsupported_media_type: 'ชนิดข้อมูลไม่รองรับ',
  timeout: 'หมดเวลารอ กรุณาลองใหม่',
  unavailable: 'ระบบไม่พร้อมให้บริการชั่วคราว กรุณาลองใหม่',
  busy: 'ขณะนี้มีผู้ใช้งานจำนวนมาก กรุณาลองใหม่ในอีกสักครู่',
  rate_limited: 'ทำรายการบ่อยเกินไป กรุณารอสักครู่แล้วลองใหม่',
  internal: 'เกิดข้อผิดพลาด กรุณาลองใหม่ หรือติดต่อฝ่ายลูกค้าสัมพันธ์',
  network: 'เชื่อมต่อไม่ได้ กรุณาตรวจสอบอินเทอร์เน็ตแล้วลองใหม่',
};

const en: ErrorTexts = {
  malformed_json: 'The request was malformed. Please try again.',
  invalid_field: 'Some fields are not valid. Please check them.',
  invalid_client_token: 'An error occurred. Please tell the administrator.',
  event_not_found: 'This event was not found.',
  event_not_on_sale: 'This event is not on sale right now.',
  upload_not_found: 'The upload was not found. Please upload again.',
  invalid_signature: 'This link is not valid.',
  file_too_large: 'The file is larger than 5MB.',
  unsupported_image_type: 'Please use a jpg or png file only.',
  unreadable_image: 'This image cannot be read. Please use another one.',
  image_too_many_pixels: 'This image is too large. Please use another one.',
  malformed_multipart: 'The upload was incomplete. Please try again.',
  image_not_found: 'A photo is no longer available. Please remove it from the cart.',
  invalid_bib: 'That is not a bib number of this event. Type the number on your bib.',
  too_many_selfies: 'At most 3 people can be searched together. Please remove a face photo.',
  no_face: 'No face was found in the uploaded photo. Please use a photo showing one clear face.',
  selfie_many_faces: 'This photo shows more than one person. Please use a selfie showing only your face.',
  privacy_request_exists: 'A request to hide the photos of this face at this event already exists: no need to send it again.',
  privacy_request_decided: 'This request has already been decided.',
  privacy_hold: 'This photo is hidden by an approved request to hide a person’s photos, so it cannot be shown again.',
  mixed_events: 'Please choose photos from only one event.',
  deal_not_available: 'This event has no all-photos deal.',
  deal_needs_search: 'The all-photos price covers the photos your search found. Please search for your photos again.',
  wholesale_not_available: 'This event does not offer the all-photos deal.',
  order_not_found: 'Order not found.',
  access_code_invalid: 'The code is wrong. Please check it and try again.',
  access_code_expired: 'The code has expired or was entered wrongly too many times. Please ask for a new code.',
  access_code_undeliverable:
    'This order has no mobile number or e-mail to send a code to: it opens only from its link or through the shop’s contact.',
  line_unavailable: 'This shop does not send orders to LINE.',
  amount_mismatch: 'Prices have changed. Please check the total again.',
  payment_gateway_changed: 'The payment method has changed. Please reload the page.',
  payment_channel_not_available: 'This payment method is not available yet.',
  approval_not_available: 'Extra photos can be requested only with the mobile number of a paid all-photos order of this event.',
  order_not_payable: 'This order is not waiting for payment.',
  payment_declined: 'The payment was declined. Please use another card.',
  payment_gateway_error: 'The payment service failed. Please try again.',
  payment_gateway_timeout: 'The payment service did not answer. Please try again.',
  order_not_paid: 'This order is not paid yet.',
  download_link_expired: 'The download link has expired. Please reload the page.',
  storage_expired: 'The storage time of these photos has expired.',
  logo_images_not_ready: 'Photos with the logo are not ready yet. Please wait a moment.',
  not_signed_in: 'Please sign in.',
  invalid_credentials: 'Wrong e-mail or password.',
  account_locked: 'Too many failed sign-ins: the account is locked for a while. Please try again later.',
  forbidden: 'This account may not do that.',
  photo_sold: 'This photo is in an order and cannot be deleted; hide it instead.',
  not_found: 'Not found.',
  method_not_allowed: 'An error occurred. Please try again.',
  payload_too_large: 'The request is too large.',
  upload_offset_conflict: 'The upload was out of step; resuming where it stopped.',
  upload_expired: 'The upload has expired; please upload the file again.',
  tus_version_unsupported: 'This uploader is not supported; please update it.',
  unsupported_media_type: 'This content type is not supported.',
  timeout: 'The request timed out. Please try again.',
  unavailable: 'The service is temporarily unavailable. Please try again.',
  busy: 'Many people are searching right now. Please try again in a moment.',
  rate_limited: 'Too many requests. Please wait a moment and try again.',
  internal: 'An error occurred. Please try again or contact customer relations.',
  network: 'Cannot connect. Please check your internet connection and try again.',
};

export const errorTexts: Record<Language, ErrorTexts> = { th, en };

/** The visitor's text for a failure, chosen by its error code. */
export function useErrorText(): (e: unknown) => string {
  const [lang] = useLanguage();
  return useCallback(
    (e: unknown) => {
      const texts = errorTexts[lang];
      return e instanceof ApiFailure ? (texts[e.code] ?? texts.internal) : texts.network;
    },
    [lang],
  );
}
