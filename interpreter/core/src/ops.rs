//! What each operation on values means, in one place: arithmetic with its
//! overflow and division errors, comparisons, the connectives on evaluated
//! operands, and folding at check time.
//!
//! The checker's constant folding (`check/declare.rs`), the passes that fold
//! (`opt/consts.rs`, `opt/fold_board.rs`) and both executors (the tree
//! evaluator `eval/expr/`, the bytecode machine `eval/bytecode.rs`) call
//! these functions, so an operator means the same wherever it is computed.
//! The matches over [`BinOp`] here are exhaustive: a new operator does not
//! compile until it is given a meaning here, and nothing downstream panics
//! on it. The functions are small and `#[inline]`: they are the executors'
//! hot path.

use crate::ast::BinOp;
use crate::ir::Val;

/// Why an operation has no value. The executors turn it into a run-time
/// error at the operation's span (`eval::RunError::op`); folding leaves
/// such an operation to fail at run time where the rules wrote it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The result does not fit in a 64-bit number.
    Overflow,
    /// A division or remainder by zero.
    DivisionByZero,
}

/// The value of an operation, or why it has none.
pub type Out = Result<Val, Fault>;

/// `x + y`.
#[inline]
pub fn add(x: Val, y: Val) -> Out {
    x.checked_add(y).ok_or(Fault::Overflow)
}

/// `x - y`.
#[inline]
pub fn sub(x: Val, y: Val) -> Out {
    x.checked_sub(y).ok_or(Fault::Overflow)
}

/// `x * y`.
#[inline]
pub fn mul(x: Val, y: Val) -> Out {
    x.checked_mul(y).ok_or(Fault::Overflow)
}

/// `x / y`, rounded toward zero. A zero divisor is checked first; the one
/// overflow left is the smallest number divided by -1.
#[inline]
pub fn div(x: Val, y: Val) -> Out {
    if y == 0 {
        return Err(Fault::DivisionByZero);
    }
    x.checked_div(y).ok_or(Fault::Overflow)
}

/// `x % y`, with the sign of `x`; errors as for [`div`].
#[inline]
pub fn rem(x: Val, y: Val) -> Out {
    if y == 0 {
        return Err(Fault::DivisionByZero);
    }
    // The remainder of any number by -1 is 0; `checked_rem` reports the
    // one case whose quotient overflows (`Val::MIN % -1`) as an overflow,
    // though the remainder itself is exact.
    if y == -1 {
        return Ok(0);
    }
    x.checked_rem(y).ok_or(Fault::Overflow)
}

/// `-x`.
#[inline]
pub fn neg(x: Val) -> Out {
    x.checked_neg().ok_or(Fault::Overflow)
}

/// `sign(x)`: -1, 0 or 1; it cannot fail.
#[inline]
pub fn sign(x: Val) -> Val {
    x.signum()
}

/// `abs(x)`.
#[inline]
pub fn abs(x: Val) -> Out {
    x.checked_abs().ok_or(Fault::Overflow)
}

/// `not x`: every value but zero is true.
#[inline]
pub fn not(x: Val) -> Val {
    (x == 0) as Val
}

/// `x` as a truth value (0 or 1).
#[inline]
pub fn truth(x: Val) -> Val {
    (x != 0) as Val
}

/// `x == y`.
#[inline]
pub fn eq(x: Val, y: Val) -> Val {
    (x == y) as Val
}

/// `x != y`.
#[inline]
pub fn ne(x: Val, y: Val) -> Val {
    (x != y) as Val
}

/// `x < y`.
#[inline]
pub fn lt(x: Val, y: Val) -> Val {
    (x < y) as Val
}

/// `x <= y`.
#[inline]
pub fn le(x: Val, y: Val) -> Val {
    (x <= y) as Val
}

/// `x > y`.
#[inline]
pub fn gt(x: Val, y: Val) -> Val {
    (x > y) as Val
}

/// `x >= y`.
#[inline]
pub fn ge(x: Val, y: Val) -> Val {
    (x >= y) as Val
}

/// `x op y` with both operands evaluated. For `and` and `or` this is their
/// value once both sides are known; not evaluating the right side when the
/// left decides is the evaluator's business, as is the order of
/// evaluation (left first).
///
/// `in` is not an operation on two values: the checker lowers it to
/// `ir::Expr::In`, so no program holds it as a binary operator.
#[inline]
pub fn binary(op: BinOp, x: Val, y: Val) -> Out {
    Ok(match op {
        BinOp::Add => return add(x, y),
        BinOp::Sub => return sub(x, y),
        BinOp::Mul => return mul(x, y),
        BinOp::Div => return div(x, y),
        BinOp::Rem => return rem(x, y),
        BinOp::Eq => eq(x, y),
        BinOp::Ne => ne(x, y),
        BinOp::Lt => lt(x, y),
        BinOp::Le => le(x, y),
        BinOp::Gt => gt(x, y),
        BinOp::Ge => ge(x, y),
        BinOp::And => (x != 0 && y != 0) as Val,
        BinOp::Or => (x != 0 || y != 0) as Val,
        BinOp::In => unreachable!("the checker lowers `in` to `Expr::In`"),
    })
}

/// `x op y` folded at check time: the value if the operation has one. An
/// operation that fails (overflow, a zero divisor) is not folded: it stays
/// in the program and fails at run time where the rules wrote it. `in` is
/// never folded here.
#[inline]
pub fn fold(op: BinOp, x: Val, y: Val) -> Option<Val> {
    if op == BinOp::In {
        return None;
    }
    binary(op, x, y).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_fails_where_64_bits_end() {
        assert_eq!(add(Val::MAX, 1), Err(Fault::Overflow));
        assert_eq!(sub(Val::MIN, 1), Err(Fault::Overflow));
        assert_eq!(mul(Val::MAX, 2), Err(Fault::Overflow));
        assert_eq!(neg(Val::MIN), Err(Fault::Overflow));
        assert_eq!(abs(Val::MIN), Err(Fault::Overflow));
        assert_eq!((sign(Val::MIN), sign(0), sign(7)), (-1, 0, 1));
        // The zero divisor is found before the one overflow of division.
        assert_eq!(div(Val::MIN, 0), Err(Fault::DivisionByZero));
        assert_eq!(div(Val::MIN, -1), Err(Fault::Overflow));
        assert_eq!(rem(Val::MIN, -1), Ok(0));
        assert_eq!(rem(7, -1), Ok(0));
        assert_eq!(div(-7, 2), Ok(-3));
        assert_eq!(rem(-7, 2), Ok(-1));
    }

    #[test]
    fn binary_is_the_named_functions() {
        assert_eq!(binary(BinOp::Sub, 3, 5), Ok(-2));
        assert_eq!(binary(BinOp::Ge, 3, 3), Ok(1));
        assert_eq!(binary(BinOp::And, 2, 0), Ok(0));
        assert_eq!(binary(BinOp::Or, 0, -1), Ok(1));
    }

    #[test]
    fn folding_leaves_failures_to_run_time() {
        assert_eq!(fold(BinOp::Div, 7, 2), Some(3));
        assert_eq!(fold(BinOp::Div, 7, 0), None);
        assert_eq!(fold(BinOp::Add, Val::MAX, 1), None);
        assert_eq!(fold(BinOp::In, 1, 1), None);
    }
}
