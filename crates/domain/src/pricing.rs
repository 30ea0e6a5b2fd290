//! Photo prices: a photo count split greedily over an event's package tiers (largest tier
//! first), the all-photos deal capped at its price, the 5% payment fee, and the cart
//! totals the shop shows and an order must match.

use crate::{Money, Package};

/// The price of `count` photos bought through `tiers`: as many of the largest tier as fit,
/// then the next, down to single photos. `None` when the tiers cannot cover the count
/// (no 1-photo tier), which validation of events prevents.
pub fn package_price(count: u32, tiers: &[Package]) -> Option<Money> {
    let mut sorted: Vec<&Package> = tiers.iter().filter(|t| t.number_of_photo > 0).collect();
    sorted.sort_by_key(|t| std::cmp::Reverse(t.number_of_photo));
    let mut remaining = count;
    let mut total = Money::ZERO;
    for tier in sorted {
        let times = remaining / tier.number_of_photo;
        total = total + tier.price.times(times);
        remaining -= times * tier.number_of_photo;
    }
    (remaining == 0).then_some(total)
}

/// What `count` photos cost when the visitor takes the all-photos deal: the package price,
/// capped at `deal_price`.
pub fn deal_price(count: u32, tiers: &[Package], deal_price: Option<Money>) -> Option<Money> {
    let packages = package_price(count, tiers)?;
    Some(match deal_price {
        Some(cap) => packages.min(cap),
        None => packages,
    })
}

/// The average price per photo shown on the deal button: deal price ÷ count, rounded half
/// up to the satang; zero for no photos.
pub fn average_price(count: u32, tiers: &[Package], cap: Option<Money>) -> Money {
    if count == 0 {
        return Money::ZERO;
    }
    let total = deal_price(count, tiers, cap)
        .unwrap_or(Money::ZERO)
        .satang();
    let n = i64::from(count);
    Money::from_satang((total + n / 2) / n).unwrap_or(Money::ZERO)
}

/// The payment processing fee, in percent of the price after discount
/// (docs/shop-contract.md, Prices).
pub const PAYMENT_FEE_PERCENT: u32 = 5;

/// What a cart costs. `full` is every photo at the single-photo price; `packages` the
/// greedy split over the tiers; `amount` what the photos cost after every discount (the
/// all-photos cap when taken); `fee` 5% of `amount`; `final_payment` what is paid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CartTotals {
    pub count: u32,
    pub full: Money,
    pub packages: Money,
    pub amount: Money,
    pub discount: Money,
    pub fee: Money,
    pub final_payment: Money,
}

impl CartTotals {
    /// The same cart paid by a photo pass: the whole price is the pass's discount, and
    /// nothing is paid (no fee either).
    pub fn paid_by_pass(self) -> CartTotals {
        CartTotals {
            amount: Money::ZERO,
            discount: self.full,
            fee: Money::ZERO,
            final_payment: Money::ZERO,
            ..self
        }
    }

    /// The same cart with one more line at a fixed `price` (a finisher certificate): it
    /// adds to every price before and after discount, and the fee is 5% of the new amount.
    pub fn with_line(self, price: Money) -> CartTotals {
        let amount = self.amount + price;
        let fee = amount.percent(PAYMENT_FEE_PERCENT);
        CartTotals {
            full: self.full + price,
            packages: self.packages + price,
            amount,
            fee,
            final_payment: amount + fee,
            ..self
        }
    }
}

/// The all-photos deal as a cart takes it: how many of the cart's photos it covers (the
/// photos a search found for this buyer) and its cap. Photos it does not cover are priced
/// by the tiers on their own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deal {
    pub covered: u32,
    pub cap: Option<Money>,
}

/// The totals of `count` photos over `tiers`; `deal` is the all-photos deal when the
/// visitor takes it; a free event costs nothing. With the deal, the covered photos cost
/// their deal price and the rest their package price, and never more than the whole cart
/// would cost without the deal. `None` when the tiers cannot price the count (no 1-photo
/// tier).
pub fn cart_totals(
    count: u32,
    tiers: &[Package],
    deal: Option<Deal>,
    free: bool,
) -> Option<CartTotals> {
    if free {
        return Some(CartTotals {
            count,
            full: Money::ZERO,
            packages: Money::ZERO,
            amount: Money::ZERO,
            discount: Money::ZERO,
            fee: Money::ZERO,
            final_payment: Money::ZERO,
        });
    }
    let single = tiers.iter().find(|t| t.number_of_photo == 1)?.price;
    let full = single.times(count);
    let packages = package_price(count, tiers)?;
    let amount = match deal {
        None => packages,
        Some(deal) => {
            let covered = deal.covered.min(count);
            let with_deal =
                deal_price(covered, tiers, deal.cap)? + package_price(count - covered, tiers)?;
            with_deal.min(packages)
        }
    };
    let fee = amount.percent(PAYMENT_FEE_PERCENT);
    Some(CartTotals {
        count,
        full,
        packages,
        amount,
        discount: full - amount,
        fee,
        final_payment: amount + fee,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn tiers() -> Vec<Package> {
        [(1, 6_000), (5, 25_000), (10, 45_000), (20, 80_000)]
            .into_iter()
            .map(|(n, satang)| Package {
                name: format!("{n}"),
                name_en: format!("{n}"),
                number_of_photo: n,
                price: Money::from_satang(satang).unwrap_or_default(),
            })
            .collect()
    }

    fn baht(b: i64) -> Money {
        Money::from_satang(b * 100).unwrap_or_default()
    }

    #[test]
    fn greedy_split_over_tiers() {
        let t = tiers();
        assert_eq!(package_price(0, &t), Some(Money::ZERO));
        assert_eq!(package_price(1, &t), Some(baht(60)));
        assert_eq!(package_price(7, &t), Some(baht(250 + 2 * 60)));
        assert_eq!(package_price(37, &t), Some(baht(800 + 450 + 250 + 2 * 60)));
        let no_single: Vec<Package> = t.into_iter().filter(|p| p.number_of_photo != 1).collect();
        assert_eq!(package_price(7, &no_single), None);
    }

    #[test]
    fn the_deal_caps_the_price_and_averages_to_the_satang() {
        let t = tiers();
        assert_eq!(deal_price(37, &t, Some(baht(990))), Some(baht(990)));
        assert_eq!(deal_price(3, &t, Some(baht(990))), Some(baht(180)));
        // 990 / 37 = 26.756… → 26.76
        assert_eq!(average_price(37, &t, Some(baht(990))).satang(), 2_676);
        assert_eq!(average_price(0, &t, Some(baht(990))), Money::ZERO);
    }

    #[test]
    fn a_pass_pays_the_whole_price() {
        let totals = cart_totals(7, &tiers(), None, false).unwrap_or_else(|| unreachable!());
        let paid = totals.paid_by_pass();
        assert_eq!(paid.count, 7);
        assert_eq!((paid.full, paid.packages), (totals.full, totals.packages));
        assert_eq!(paid.discount, totals.full);
        assert_eq!(
            (paid.amount, paid.fee, paid.final_payment),
            (Money::ZERO, Money::ZERO, Money::ZERO)
        );
    }

    #[test]
    fn a_line_adds_to_every_price_and_to_the_fee() {
        let totals = cart_totals(7, &tiers(), None, false).unwrap_or_else(|| unreachable!());
        let with = totals.with_line(baht(59));
        assert_eq!(with.count, 7);
        assert_eq!(
            (with.full, with.packages, with.amount, with.discount),
            (baht(479), baht(429), baht(429), totals.discount)
        );
        // 5% of 429.00 = 21.45
        assert_eq!(with.fee.satang(), 2_145);
        assert_eq!(with.final_payment.satang(), 42_900 + 2_145);
        // A line alone: no photos.
        let alone = cart_totals(0, &tiers(), None, false)
            .unwrap_or_else(|| unreachable!())
            .with_line(baht(59));
        assert_eq!(
            (alone.count, alone.amount, alone.discount),
            (0, baht(59), Money::ZERO)
        );
    }

    #[test]
    fn cart_totals_add_up() {
        let t = tiers();
        let c = cart_totals(7, &t, None, false).unwrap_or_else(|| panic!("priced"));
        assert_eq!(
            (c.full, c.packages, c.amount),
            (baht(420), baht(370), baht(370))
        );
        assert_eq!(
            (c.discount, c.fee, c.final_payment),
            (
                baht(50),
                Money::from_satang(1850).unwrap_or_default(),
                Money::from_satang(38_850).unwrap_or_default()
            )
        );
        let all = Deal {
            covered: 37,
            cap: Some(baht(990)),
        };
        let deal = cart_totals(37, &t, Some(all), false).unwrap_or_else(|| panic!("priced"));
        assert_eq!(
            (deal.packages, deal.amount, deal.discount),
            (baht(1_620), baht(990), baht(37 * 60 - 990))
        );
        let free = cart_totals(3, &t, None, true).unwrap_or_else(|| panic!("priced"));
        assert_eq!(free.final_payment, Money::ZERO);
        assert_eq!(
            cart_totals(3, &t[1..], None, false),
            None,
            "no single-photo tier"
        );
    }

    #[test]
    fn the_deal_covers_only_what_a_search_found() {
        let t = tiers();
        // 11 photos, 10 of them found: the 10 at the cap, the stranger by the tiers.
        let deal = Deal {
            covered: 10,
            cap: Some(baht(300)),
        };
        let c = cart_totals(11, &t, Some(deal), false).unwrap_or_else(|| panic!("priced"));
        assert_eq!(c.amount, baht(300 + 60));
        // Covering nothing, the deal changes nothing.
        let none = Deal {
            covered: 0,
            cap: Some(baht(300)),
        };
        let c = cart_totals(11, &t, Some(none), false).unwrap_or_else(|| panic!("priced"));
        assert_eq!(c.amount, baht(450 + 60));
        // Never dearer than the whole cart by the tiers: 5 found at a high cap (250) and 5
        // others (250) would be 500; 10 by the tiers are 450.
        let high = Deal {
            covered: 5,
            cap: Some(baht(990)),
        };
        let c = cart_totals(10, &t, Some(high), false).unwrap_or_else(|| panic!("priced"));
        assert_eq!(c.amount, baht(450));
    }

    proptest! {
        #[test]
        fn a_partial_deal_lies_between_the_deal_and_the_tiers(
            count in 0u32..300, covered in 0u32..300, cap in 1i64..200_000,
        ) {
            let t = tiers();
            let cap = Money::from_satang(cap * 100).unwrap_or_default();
            let covered = covered.min(count);
            let part = cart_totals(count, &t, Some(Deal { covered, cap: Some(cap) }), false)
                .unwrap_or_else(|| panic!("priced"));
            let whole = cart_totals(count, &t, Some(Deal { covered: count, cap: Some(cap) }), false)
                .unwrap_or_else(|| panic!("priced"));
            let plain = cart_totals(count, &t, None, false).unwrap_or_else(|| panic!("priced"));
            prop_assert!(whole.amount <= part.amount && part.amount <= plain.amount);
        }

        #[test]
        fn totals_hold_together(count in 0u32..500, cap in proptest::option::of(1i64..200_000)) {
            let t = tiers();
            let cap = cap.map(|c| Money::from_satang(c * 100).unwrap_or_default());
            let deal = cap.map(|cap| Deal { covered: count, cap: Some(cap) });
            let c = cart_totals(count, &t, deal, false).unwrap_or_else(|| panic!("priced"));
            prop_assert!(c.amount <= c.packages && c.packages <= c.full);
            prop_assert_eq!(c.full, c.amount + c.discount);
            prop_assert_eq!(c.final_payment, c.amount + c.fee);
            prop_assert_eq!(c.fee.satang(), (c.amount.satang() * 5 + 50) / 100);
            if let Some(cap) = cap { prop_assert!(c.amount <= cap); }
        }

        #[test]
        fn never_above_single_photo_prices_nor_the_cap(count in 0u32..500, cap in 1i64..200_000) {
            let t = tiers();
            let singles = baht(60).times(count);
            let cap = Money::from_satang(cap * 100).unwrap_or_default();
            let price = package_price(count, &t).unwrap_or(Money::ZERO);
            prop_assert!(price <= singles);
            let deal = deal_price(count, &t, Some(cap)).unwrap_or(Money::ZERO);
            prop_assert!(deal <= cap && deal <= price);
        }

        /// The greedy rule, taken literally: while photos remain, take the largest tier
        /// that fits. Random tiers (always with a single-photo tier) and counts.
        #[test]
        fn the_split_is_the_greedy_rule(
            count in 0u32..400,
            sizes in proptest::collection::btree_set(2u32..40, 0..5),
            prices in proptest::collection::vec(1i64..100_000, 6),
        ) {
            let mut tiers = vec![Package {
                name: "1".into(), name_en: "1".into(), number_of_photo: 1,
                price: Money::from_satang(prices[0]).unwrap_or_default(),
            }];
            for (i, n) in sizes.iter().enumerate() {
                tiers.push(Package {
                    name: n.to_string(), name_en: n.to_string(), number_of_photo: *n,
                    price: Money::from_satang(prices[i + 1]).unwrap_or_default(),
                });
            }
            let mut remaining = count;
            let mut expected = Money::ZERO;
            while remaining > 0 {
                let Some(tier) = tiers
                    .iter()
                    .filter(|t| t.number_of_photo <= remaining)
                    .max_by_key(|t| t.number_of_photo)
                else {
                    break;
                };
                expected = expected + tier.price;
                remaining -= tier.number_of_photo;
            }
            prop_assert_eq!(package_price(count, &tiers), Some(expected));
        }
    }
}
