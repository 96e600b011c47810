"""The History screen: past nights, statistics, exports."""
