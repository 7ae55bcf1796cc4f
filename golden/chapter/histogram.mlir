entry @histogram(%arg0: tile<ptr<i32>>, %arg1: tile<ptr<i32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<i32>>
  %5 = make_tensor_view %4, shape = [1000], strides = [1] : tensor_view<1000xi32, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xi32, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xi32, strides=[1]>>, tile<i32> -> tile<128xi32>, token
  %9 = constant <i32: 1> : tile<128xi32>
  %10 = reshape %arg1 : tile<ptr<i32>> -> tile<1xptr<i32>>
  %11 = broadcast %10 : tile<1xptr<i32>> -> tile<128xptr<i32>>
  %12 = constant <i32: 15> : tile<128xi32>
  %13 = andi %7, %12 : tile<128xi32>
  %14 = offset %11, %13 : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
  %15 = constant <i32: 128> : tile<i32>
  %16 = muli %1, %15 : tile<i32>
  %17 = reshape %16 : tile<i32> -> tile<1xi32>
  %18 = broadcast %17 : tile<1xi32> -> tile<128xi32>
  %19 = iota : tile<128xi32>
  %20 = addi %18, %19 : tile<128xi32>
  %21 = constant <i32: 1000> : tile<128xi32>
  %22 = cmpi less_than %20, %21, signed : tile<128xi32> -> tile<128xi1>
  %23 = constant <i32: 0> : tile<128xi32>
  %24 = cmpi greater_than_or_equal %7, %23, signed : tile<128xi32> -> tile<128xi1>
  %25 = andi %22, %24 : tile<128xi1>
  %26 = constant <i32: 16> : tile<128xi32>
  %27 = cmpi less_than %7, %26, signed : tile<128xi32> -> tile<128xi1>
  %28 = andi %25, %27 : tile<128xi1>
  %29, %30 = atomic_rmw_tko relaxed device %14, add, %9, %28 token=%8 : tile<128xptr<i32>>, tile<128xi32>, tile<128xi1> -> tile<128xi32>, token
  return
}
