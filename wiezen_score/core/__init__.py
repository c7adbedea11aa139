"""The pure core: house rules, the deal line, scoring with its explanation, the session fold, dates, settle.

No I/O, no SQL, no click: every function takes values and returns values (errors are ``WiezenError``).
"""
