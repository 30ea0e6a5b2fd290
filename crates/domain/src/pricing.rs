//! Photo prices: a photo count split greedily over an event's package tiers (largest tier
//! first), and the all-photos deal capped at its price.

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

    proptest! {
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
    }
}
