//! This folder's translator, so child components share one typed signature.

import { useDictionary } from '@/i18n';
import { adminPhotosMessages } from './messages';

export function useAdminPhotosT() {
  return useDictionary(adminPhotosMessages);
}

export type AdminPhotosT = ReturnType<typeof useAdminPhotosT>;
