//! Data parallelism: rayon's with the `parallel` feature (on by default);
//! without it the same calls run in order on the caller's thread, so an
//! embedder may build the library with no thread pool at all. Every
//! parallel loop here is written so that its result does not depend on
//! the order its items finish in.

#[cfg(feature = "parallel")]
pub(crate) use rayon::prelude::*;

#[cfg(not(feature = "parallel"))]
pub(crate) use in_order::*;

#[cfg(not(feature = "parallel"))]
mod in_order {
    /// `par_iter` on a slice (and so on a `Vec`): its plain iterator.
    pub(crate) trait IntoParallelRefIterator<'a> {
        type Iter: Iterator;
        fn par_iter(&'a self) -> Self::Iter;
    }

    impl<'a, T: 'a> IntoParallelRefIterator<'a> for [T] {
        type Iter = std::slice::Iter<'a, T>;
        fn par_iter(&'a self) -> Self::Iter {
            self.iter()
        }
    }

    /// `into_par_iter`: the plain `into_iter`.
    pub(crate) trait IntoParallelIterator {
        type Iter: Iterator;
        fn into_par_iter(self) -> Self::Iter;
    }

    impl<I: IntoIterator> IntoParallelIterator for I {
        type Iter = I::IntoIter;
        fn into_par_iter(self) -> Self::Iter {
            self.into_iter()
        }
    }

    /// rayon's `find_map_first`: in order, it is `find_map`.
    pub(crate) trait ParallelIterator: Iterator + Sized {
        fn find_map_first<B>(mut self, f: impl FnMut(Self::Item) -> Option<B>) -> Option<B> {
            self.find_map(f)
        }
    }

    impl<I: Iterator> ParallelIterator for I {}
}
