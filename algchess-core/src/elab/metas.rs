//! Metavariables of laws. A claim may use single-letter names it does not
//! define; the letter fixes the sort. More of one sort are numbered after an
//! underscore (`M_1`, `f_2`): a bare `m1` is `m` times `1`.

use crate::ir::Sort;

/// The sort a metavariable name stands for, if it is one.
pub(super) fn meta_sort(name: &str) -> Option<Sort> {
    let mut chars = name.chars();
    let first = chars.next()?;
    let rest = chars.as_str();
    let numbered = rest.len() > 1 && rest.starts_with('_') && rest[1..].chars().all(|c| c.is_ascii_digit());
    if !rest.is_empty() && !numbered {
        return None;
    }
    Some(match first {
        'm' | 'n' | 't' => Sort::Movement,
        'p' | 'q' => Sort::Cell,
        'f' | 'g' | 'h' | 'x' | 'y' | 'z' => Sort::Fragment,
        'P' | 'Q' => Sort::Pattern,
        'M' | 'N' | 'K' => Sort::Move,
        'i' | 'j' | 'k' => Sort::Count,
        _ => return None,
    })
}

/// The table, for help texts and documentation.
pub(super) const META_TABLE: &str =
    "m n t: movement; p q: cell; f g h x y z: fragment; P Q: pattern; M N K: move; i j k: count; numbered as M_1, M_2";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_fix_sorts() {
        assert_eq!(meta_sort("M"), Some(Sort::Move));
        assert_eq!(meta_sort("f_2"), Some(Sort::Fragment));
        assert_eq!(meta_sort("m1"), None);
        assert_eq!(meta_sort("M_"), None);
        assert_eq!(meta_sort("p"), Some(Sort::Cell));
        assert_eq!(meta_sort("Mx"), None);
        assert_eq!(meta_sort("A"), None);
    }
}
