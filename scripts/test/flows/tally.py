"""The pass/fail tally every scripted test shares: each check prints "ok   <what>" or "FAIL <what> <detail>", and the
script ends with the line "N passed, N failed" and exits 1 on any failure (make test reads both)."""


class Tally:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, condition, message, detail=""):
        if condition:
            self.passed += 1
            print(f"ok   {message}")
        else:
            self.failed += 1
            print(f"FAIL {message} {str(detail)[:300]}".rstrip())
        return bool(condition)

    def summary(self):
        """Prints the closing line; returns the script's exit status."""
        print(f"{self.passed} passed, {self.failed} failed")
        return 1 if self.failed else 0


# One per process: a script and the helpers it imports count into the same tally.
tally = Tally()
check = tally.check


def expect(name, condition, detail=""):
    """`check` with the name first, the order the OpenID and OAuth client scripts read best in."""
    return tally.check(condition, name, detail)
