entry @histogram(%arg0: tile<ptr<i32>>, %arg1: tile<ptr<i32>>, %arg2: tile<i64>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<i32>>
  %5 = make_tensor_view %4, shape = [1000], strides = [1] : tensor_view<1000xi32, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xi32, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xi32, strides=[1]>>, tile<i32> -> tile<128xi32>, token
  %9 = constant <i32: 15> : tile<128xi32>
  %10 = andi %7, %9 : tile<128xi32>
  %11 = exti %10 signed : tile<128xi32> -> tile<128xi64>
  %12 = constant <i64: 0> : tile<128xi64>
  %13 = cmpi greater_than_or_equal %11, %12, signed : tile<128xi64> -> tile<128xi1>
  %14 = reshape %arg2 : tile<i64> -> tile<1xi64>
  %15 = broadcast %14 : tile<1xi64> -> tile<128xi64>
  %16 = cmpi less_than %11, %15, signed : tile<128xi64> -> tile<128xi1>
  %17 = andi %13, %16 : tile<128xi1>
  %18 = constant <i32: 128> : tile<i32>
  %19 = muli %1, %18 : tile<i32>
  %20 = reshape %19 : tile<i32> -> tile<1xi32>
  %21 = broadcast %20 : tile<1xi32> -> tile<128xi32>
  %22 = iota : tile<128xi32>
  %23 = addi %21, %22 : tile<128xi32>
  %24 = constant <i32: 1000> : tile<128xi32>
  %25 = cmpi less_than %23, %24, signed : tile<128xi32> -> tile<128xi1>
  %26 = constant <i32: 0> : tile<128xi32>
  %27 = cmpi greater_than_or_equal %7, %26, signed : tile<128xi32> -> tile<128xi1>
  %28 = andi %25, %27 : tile<128xi1>
  %29 = constant <i32: 16> : tile<128xi32>
  %30 = cmpi less_than %7, %29, signed : tile<128xi32> -> tile<128xi1>
  %31 = andi %28, %30 : tile<128xi1>
  %32 = constant <i1: true> : tile<128xi1>
  %33 = xori %31, %32 : tile<128xi1>
  %34 = ori %17, %33 : tile<128xi1>
  assert %34, "kernel `histogram`: `atomic_rmw_tko`: a lane addresses memory outside argument 1 (Shared) (at chapter.py:255)" : tile<128xi1>
  %35 = constant <i32: 1> : tile<128xi32>
  %36 = reshape %arg1 : tile<ptr<i32>> -> tile<1xptr<i32>>
  %37 = broadcast %36 : tile<1xptr<i32>> -> tile<128xptr<i32>>
  %38 = offset %37, %10 : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
  %39, %40 = atomic_rmw_tko relaxed device %38, add, %35, %31 token=%8 : tile<128xptr<i32>>, tile<128xi32>, tile<128xi1> -> tile<128xi32>, token
  return
}
