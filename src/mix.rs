//! SplitMix64: a fast, well-mixed 64-bit sequence from a seed. Random suffixes draw from
//! it, and statistics and the log's sampling use it wherever a stable mix is needed.

/// Output `index` of the SplitMix64 generator started at `seed` (Steele, Lea and Flood):
/// the draws of `rand_suffix`, and a good 64-bit mix anywhere one is needed.
pub fn splitmix64(seed: u64, index: u64) -> u64 {
    const GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut z = seed.wrapping_add(index.wrapping_add(1).wrapping_mul(GAMMA));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_matches_the_reference() {
        let outputs = [0, 1, 2].map(|i| splitmix64(0, i));
        assert_eq!(
            outputs,
            [
                0xe220_a839_7b1d_cdaf,
                0x6e78_9e6a_a1b9_65f4,
                0x06c4_5d18_8009_454f
            ]
        );
    }
}
