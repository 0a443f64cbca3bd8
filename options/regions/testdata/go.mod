module example.com/regionsdata

go 1.26
