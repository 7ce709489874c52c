"""What a ladder database holds, for people and programs: tables, the HTML report, JSON and
CSV exports, and the audit of stored columns against their records.
"""
