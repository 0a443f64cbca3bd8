module example.com

go 1.26
