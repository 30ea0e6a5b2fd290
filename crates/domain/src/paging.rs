//! Page requests for lists: 1-based pages of a bounded size (the shop's home page shows 18).

pub const DEFAULT_PAGE_SIZE: u32 = 18;
pub const MAX_PAGE_SIZE: u32 = 100;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageRequest {
    page: u32,
    size: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PageError {
    #[error("page starts at 1")]
    Page,
    #[error("page_size must be 1 to {MAX_PAGE_SIZE}")]
    Size,
}

impl PageRequest {
    pub fn new(page: Option<u32>, size: Option<u32>) -> Result<Self, PageError> {
        let page = page.unwrap_or(1);
        let size = size.unwrap_or(DEFAULT_PAGE_SIZE);
        if page == 0 {
            return Err(PageError::Page);
        }
        if size == 0 || size > MAX_PAGE_SIZE {
            return Err(PageError::Size);
        }
        Ok(Self { page, size })
    }

    pub fn limit(self) -> i64 {
        i64::from(self.size)
    }

    pub fn offset(self) -> i64 {
        i64::from(self.page - 1) * i64::from(self.size)
    }
}

impl Default for PageRequest {
    fn default() -> Self {
        Self {
            page: 1,
            size: DEFAULT_PAGE_SIZE,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_are_one_based_and_bounded() {
        let p = PageRequest::new(Some(3), None);
        assert_eq!(p.map(|p| (p.limit(), p.offset())), Ok((18, 36)));
        assert_eq!(PageRequest::new(Some(0), None), Err(PageError::Page));
        assert_eq!(PageRequest::new(None, Some(101)), Err(PageError::Size));
        assert_eq!(PageRequest::new(None, Some(0)), Err(PageError::Size));
    }
}
