//! The controller byte as the ROM keeps it: one bit a button, in the order the NES shift
//! register reads them out (A first, so A is bit 7 after eight shifts).

/// The eight buttons of one frame, as `heldButtons` ($00F7) holds them.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Buttons(pub u8);

impl Buttons {
    pub const RIGHT: Buttons = Buttons(0x01);
    pub const LEFT: Buttons = Buttons(0x02);
    pub const DOWN: Buttons = Buttons(0x04);
    pub const UP: Buttons = Buttons(0x08);
    pub const START: Buttons = Buttons(0x10);
    pub const SELECT: Buttons = Buttons(0x20);
    pub const B: Buttons = Buttons(0x40);
    pub const A: Buttons = Buttons(0x80);
    pub const NONE: Buttons = Buttons(0);

    /// Whether every button of `other` is down.
    pub const fn has(self, other: Buttons) -> bool {
        self.0 & other.0 == other.0
    }

    /// The buttons down now and not on the frame before (the ROM's `newlyPressedButtons`,
    /// $00F5): menus and rotation react to these, held buttons only to shifts and soft drop.
    pub const fn pressed_since(self, before: Buttons) -> Buttons {
        Buttons(self.0 & !before.0)
    }

    /// Both sets together.
    pub const fn with(self, other: Buttons) -> Buttons {
        Buttons(self.0 | other.0)
    }

    /// The d-pad part (right, left, down, up): soft drop wants down alone among these.
    pub const fn dpad(self) -> Buttons {
        Buttons(self.0 & 0x0F)
    }

    /// The buttons of an FM2 gamepad field, `RLDUTSBA` with any character but `.` and
    /// space meaning down; `None` when the field is not eight characters long.
    pub fn from_fm2(field: &str) -> Option<Buttons> {
        let bytes = field.as_bytes();
        if bytes.len() != 8 {
            return None;
        }
        let mut bits = 0u8;
        for (i, c) in bytes.iter().enumerate() {
            if *c != b'.' && *c != b' ' {
                bits |= 1 << i;
            }
        }
        Some(Buttons(bits))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fm2_field_order_is_right_left_down_up_start_select_b_a() {
        assert_eq!(Buttons::from_fm2("R......."), Some(Buttons::RIGHT));
        assert_eq!(Buttons::from_fm2("...U...."), Some(Buttons::UP));
        assert_eq!(Buttons::from_fm2("....T..."), Some(Buttons::START));
        assert_eq!(Buttons::from_fm2(".......A"), Some(Buttons::A));
        assert_eq!(
            Buttons::from_fm2("  D   B "),
            Some(Buttons::DOWN.with(Buttons::B))
        );
        assert_eq!(Buttons::from_fm2("......."), None);
    }

    #[test]
    fn pressed_is_down_now_and_up_before() {
        let before = Buttons::LEFT;
        let now = Buttons::LEFT.with(Buttons::A);
        assert_eq!(now.pressed_since(before), Buttons::A);
    }
}
