//! The two cart routes: `/cart` (the standard cart, storage key `cart`) and
//! `/cart-wholesale` (the all-photos wholesale cart, storage key `cart_wholesale`).

import { Cart } from './Cart';

export function CartPage() {
  return <Cart kind="standard" />;
}

export function WholesaleCartPage() {
  return <Cart kind="wholesale" />;
}
