//! The order and grouping of a decision's options, as people read them: the
//! terminal's play screen and the playground show them the same way.

/// The order the options are shown in (indices into `labels`): options that
/// stand alone first, then the groups of three or more that differ only in
/// their last word (`stall 1 at: r1c1 …`). A game's commonest moves are
/// rarely the long enumerations, and they should not be on page two.
pub fn option_order(labels: &[String]) -> Vec<usize> {
    option_layout(labels).into_iter().flatten().collect()
}

/// [`option_order`] as the screen lays it out: each option that stands
/// alone as a run of one, first, then each group (a run of three or more
/// from [`option_runs`]).
pub fn option_layout(labels: &[String]) -> Vec<std::ops::Range<usize>> {
    let (mut singles, mut grouped) = (vec![], vec![]);
    for run in option_runs(labels) {
        if run.len() >= 3 {
            grouped.push(run);
        } else {
            singles.extend(run.map(|i| i..i + 1));
        }
    }
    singles.extend(grouped);
    singles
}

/// The runs of neighbouring options that share everything but their last
/// word (an option of one word is a run of its own): a run of three or more
/// is shown as a group.
pub fn option_runs(labels: &[String]) -> Vec<std::ops::Range<usize>> {
    let key = |l: &str| l.rsplit_once(' ').map(|(a, _)| a.to_string());
    let mut runs = vec![];
    let mut i = 0;
    while i < labels.len() {
        let k = key(&labels[i]);
        let mut j = i + 1;
        if k.is_some() {
            while j < labels.len() && key(&labels[j]) == k {
                j += 1;
            }
        }
        runs.push(i..j);
        i = j;
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_options_come_before_the_groups() {
        let l: Vec<String> = ["put at r1", "put at r2", "put at r3", "draw", "pass"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(option_order(&l), vec![3, 4, 0, 1, 2]);
    }
}
