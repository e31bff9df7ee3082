//! BG23 App. B: operator extrapolation's step rules, its linear rate and iteration counts (literal and corrected).
