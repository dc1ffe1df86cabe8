//! Any bytes, cut at the first NUL into an extract and a gold text (and
//! the whole input as the page for savings): the evaluation metrics never
//! panic and their scores stay in [0, 1].
#![no_main]

use gleaner_eval::{
    block_prf, edr_scores, lcs_prf, lcs_words, savings, shingle_page, shingle_tokens, Prf,
};
use libfuzzer_sys::fuzz_target;

fn check(prf: Option<Prf>) {
    if let Some(p) = prf {
        for v in [p.precision, p.recall, p.f1] {
            assert!(v.is_nan() || (0.0..=1.0).contains(&v), "score {v}");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (extracted, gold) = text.split_once('\0').unwrap_or((&text, ""));
    check(lcs_prf(extracted, gold));
    let _ = shingle_page(extracted, gold);
    let _ = edr_scores(extracted, gold);
    let _ = savings(extracted, data);
    let _ = shingle_tokens(extracted);
    check(block_prf(&lcs_words(extracted), &lcs_words(gold)));
});
