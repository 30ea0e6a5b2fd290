//! The shop's event as the pages read it, and `eventFromWire`, which each feature's `api.ts`
//! applies to the API's `EventBody` beside the call that fetched it. The wire's plain fields
//! keep their names; its `Y`/`N` flags become booleans, and the all-photos deal and wholesale
//! fields take the app's names, so no page reads the wire's.

import { isYes, type EventBody, type PackageBody } from './types';

/** A price tier: so many photos for so much. */
export type Package = PackageBody;

type WireOnly =
  | 'can_sale'
  | 'close_sale'
  | 'package'
  | 'package_hb'
  | 'is_mhao'
  | 'mhao_price'
  | 'caption_button_buy_all'
  | 'is_hybrid'
  | 'is_mhao_hybrid'
  | 'hybrid_mhao_price'
  | 'is_event_stage'
  | 'is_free_download'
  | 'is_free_download_keep_contract';

export type ShopEvent = Omit<EventBody, WireOnly> & {
  /** The sale window is open now. */
  onSale: boolean;
  /** An operator closed the sale early: it wins over `onSale`. */
  saleClosed: boolean;
  /** The standard cart's price tiers. */
  packages: Package[];
  /** The all-photos deal of the standard cart, its price, and its button's label (empty for
   * the shop's own words). */
  deal: boolean;
  dealPrice: number | null;
  dealLabel: string;
  /** The wholesale page and cart, their price tiers, and their own all-photos deal. */
  wholesale: boolean;
  wholesalePackages: Package[];
  wholesaleDeal: boolean;
  wholesaleDealPrice: number | null;
  /** A stage event: its photos are also listed for searching by hand. */
  manualSearch: boolean;
  /** Photos download free; or free for the buyer's contact details, through an order. */
  freeDownload: boolean;
  freeForContact: boolean;
};

export function eventFromWire(wire: EventBody): ShopEvent {
  const {
    can_sale,
    close_sale,
    package: packages,
    package_hb,
    is_mhao,
    mhao_price,
    caption_button_buy_all,
    is_hybrid,
    is_mhao_hybrid,
    hybrid_mhao_price,
    is_event_stage,
    is_free_download,
    is_free_download_keep_contract,
    ...plain
  } = wire;
  return {
    ...plain,
    onSale: isYes(can_sale),
    saleClosed: isYes(close_sale),
    packages,
    deal: isYes(is_mhao),
    dealPrice: mhao_price ?? null,
    dealLabel: caption_button_buy_all,
    wholesale: isYes(is_hybrid),
    wholesalePackages: package_hb,
    wholesaleDeal: isYes(is_mhao_hybrid),
    wholesaleDealPrice: hybrid_mhao_price ?? null,
    manualSearch: isYes(is_event_stage),
    freeDownload: isYes(is_free_download),
    freeForContact: isYes(is_free_download_keep_contract),
  };
}
